// The ledger as the API answers it: snake_case, centavos as safe integers.
import type { EntrySummary, Statement, TrialBalanceRow } from './store.ts'

export function entryView(e: EntrySummary) {
  return {
    id: e.id, numero: e.numero, data: e.data, historico: e.historico, origem: { tipo: e.origemTipo, id: e.origemId }, request_id: e.requestId,
    linhas: e.linhas.map((l) => ({
      conta: l.conta, cedente_id: l.cedenteId ?? null, debito_centavos: Number(l.debito ?? 0n), credito_centavos: Number(l.credito ?? 0n),
    })),
  }
}

export function statementView(cedenteId: string, range: { de: string, ate: string }, s: Statement) {
  return {
    cedente_id: cedenteId, de: range.de, ate: range.ate, saldo_inicial_centavos: Number(s.saldoInicial),
    movimentos: s.movimentos.map((m) => ({
      lancamento_id: m.lancamentoId, data: m.data, historico: m.historico, origem: m.origem,
      debito_centavos: Number(m.debito), credito_centavos: Number(m.credito), saldo_centavos: Number(m.saldo),
    })),
    saldo_final_centavos: Number(s.saldoFinal),
  }
}

export function trialBalanceView(data: string, rows: TrialBalanceRow[]) {
  const sums = { debitos: 0n, creditos: 0n, devedor: 0n, credor: 0n }
  const contas = rows.map((r) => {
    const net = r.debitos - r.creditos
    const devedor = net > 0n ? net : 0n
    const credor = net < 0n ? -net : 0n
    sums.debitos += r.debitos
    sums.creditos += r.creditos
    sums.devedor += devedor
    sums.credor += credor
    return {
      conta: r.conta, nome: r.nome, natureza: r.natureza, debitos_centavos: Number(r.debitos), creditos_centavos: Number(r.creditos),
      saldo_devedor_centavos: Number(devedor), saldo_credor_centavos: Number(credor),
    }
  })
  return {
    data, contas,
    totais: {
      debitos_centavos: Number(sums.debitos), creditos_centavos: Number(sums.creditos),
      saldo_devedor_centavos: Number(sums.devedor), saldo_credor_centavos: Number(sums.credor),
    },
  }
}

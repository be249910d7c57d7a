// The bank adapter over HTTP (adapter.ts): JSON requests to a bank's collection API (platform/http/json-client.ts:
// bounded in time and size; a 4xx a refusal, final; anything else the bank being unavailable, tried again later).
// Spoken here to the sandbox bank's API (sandbox/bank-server.ts), whose routes it names; a real bank's client
// implements BankAdapter itself.
import { jsonClient } from '../../../platform/http/json-client.ts'
import type { BankAdapter, PedidoDeInstrucao, PedidoDeRegistro, Registro, Resultado, SituacaoNoBanco, ContaNoBanco } from './adapter.ts'

export interface HttpAdapterOptions {
  /** The bank API's base URL ("http://127.0.0.1:4010/sandbox-bank/v1"). */
  baseUrl: string
  token: string
  timeoutMs: number
  fetch?: typeof fetch
}

export function httpBankAdapter(o: HttpAdapterOptions): BankAdapter {
  const call = jsonClient({ ...o, who: 'o banco' })

  const conta = (c: ContaNoBanco) => ({ banco: c.banco, agencia: c.agencia, conta: c.conta, conta_digito: c.contaDigito, carteira: c.carteira,
    ...(c.convenio ? { convenio: c.convenio } : {}), ...(c.chavePix ? { chave_pix: c.chavePix } : {}) })

  return {
    async registrar(p: PedidoDeRegistro): Promise<Registro> {
      const r = await call('PUT', `/boletos/${encodeURIComponent(p.nossoNumero)}`, {
        conta: conta(p.conta), seu_numero: p.seuNumero, vencimento: p.vencimento, valor_centavos: p.valorCentavos, pagador: p.pagador,
        beneficiario: p.beneficiario, juros_dia_centavos: p.jurosDiaCentavos ?? 0n, multa: p.multa ?? '0', desconto: p.desconto ?? null,
      })
      if (!r.ok) return r
      const j = (r.json ?? {}) as { pix?: { txid?: string, location?: string, pix_copia_e_cola?: string } }
      if (!j.pix?.txid || !j.pix.location || !j.pix.pix_copia_e_cola) {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco sem o PIX da cobrança' }
      }
      return { ok: true, pix: { txid: j.pix.txid, location: j.pix.location, copiaECola: j.pix.pix_copia_e_cola }, resposta: r.json }
    },
    async instruir(p: PedidoDeInstrucao): Promise<Resultado> {
      const r = await call('POST', `/boletos/${encodeURIComponent(p.nossoNumero)}/instrucoes`, {
        id: p.id, conta: conta(p.conta), instrucao: p.instrucao, ...(p.vencimento ? { vencimento: p.vencimento } : {}),
        ...(p.abatimentoCentavos === undefined ? {} : { abatimento_centavos: p.abatimentoCentavos }),
      })
      return r.ok ? { ok: true, resposta: r.json } : r
    },
    async consultar(p: { conta: ContaNoBanco, nossoNumero: string }): Promise<SituacaoNoBanco> {
      const q = new URLSearchParams({ banco: p.conta.banco, conta: `${p.conta.agencia}-${p.conta.conta}`,
        ...(p.conta.convenio ? { convenio: p.conta.convenio } : {}) })
      const r = await call('GET', `/boletos/${encodeURIComponent(p.nossoNumero)}?${q}`)
      if (!r.ok) return r
      const j = (r.json ?? {}) as { situacao?: string, pago_centavos?: unknown, pago_em?: string }
      if (j.situacao !== 'registrada' && j.situacao !== 'liquidada' && j.situacao !== 'baixada') {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco sem a situação do boleto' }
      }
      if (j.pago_centavos !== undefined && !Number.isSafeInteger(j.pago_centavos)) {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco com um valor pago que não é um número de centavos' }
      }
      return { ok: true, situacao: j.situacao, ...(j.pago_centavos === undefined ? {} : { pagoCentavos: BigInt(j.pago_centavos as number) }),
        ...(j.pago_em ? { pagoEm: j.pago_em } : {}), resposta: r.json }
    },
  }
}

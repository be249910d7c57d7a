// What an instruction does once its bank confirms it (issue 33), whichever way the answer came (the API worker, or a
// retorno's line answering a remessa): an abatimento lowers the título's balance and is the cedente's to bear (a
// defect of the título's origin: docs/decisions.md), so it is posted at once, Dr the cedente's conta gráfica, Cr
// direitos creditórios, and kept on the instruction (`lancamento_id`) so that a liquidation reporting it again does
// not post it twice (retornos/apply.ts); a write-off closes the charge; a new due date re-dates the título and its charge
// and posts its IOF complementar (prorrogacao.ts). A protest changes no money here.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { postEntry } from '../../ledger/index.ts'
import { extensionConfirmed } from './prorrogacao.ts'

type Confirmed = {
  id: string, cliente_id: string, instrucao: string, abatimento: string | null, vencimento: string | null, iof: string | null, lancamento_id: string | null,
  desagio_pendente: string,
  cobranca_id: string, cobranca_numero: string,
  titulo_id: string, titulo_estado: string, saldo: string, cedente_id: string
}

/** The effects of instruction `id`, just confirmed: once (an abatimento already posted is not posted again). */
export async function instructionConfirmed(tx: Orm, id: string, now: Date): Promise<void> {
  const [i] = await queryRows<Confirmed>(tx, sql`SELECT i.id, i.cliente_id, i.instrucao, i.abatimento_centavos::text AS abatimento,
      i.vencimento::text AS vencimento, i.iof_centavos::text AS iof, i.lancamento_id,
      c.id AS cobranca_id, c.numero::text AS cobranca_numero, t.id AS titulo_id, t.estado AS titulo_estado, t.saldo_centavos::text AS saldo, t.cedente_id,
      (coalesce(t.desagio_centavos, 0) - t.desagio_apropriado_centavos)::text AS desagio_pendente
    FROM cobranca_instrucoes i
    JOIN cobrancas c ON c.cliente_id = i.cliente_id AND c.id = i.cobranca_id
    JOIN titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
    WHERE i.id = ${id}::uuid AND i.estado = 'confirmada' FOR UPDATE OF i, t`)
  if (!i) return
  if (i.instrucao === 'baixa') {
    await tx.execute(sql`UPDATE cobrancas SET estado = 'baixada', atualizado_em = ${now.toISOString()}::timestamptz
      WHERE id = ${i.cobranca_id}::uuid AND estado IN ('a_registrar', 'registrada')`)
    return
  }
  if (i.instrucao === 'alteracao_vencimento') {
    await extensionConfirmed(tx, { id: i.id, cliente_id: i.cliente_id, cobranca_id: i.cobranca_id, vencimento: i.vencimento!, iof: i.iof,
      lancamento_id: i.lancamento_id }, now)
    return
  }
  if (i.instrucao !== 'abatimento' || i.lancamento_id !== null || i.titulo_estado !== 'adquirido') return
  // Never below zero: the rules keep an abatimento below the charged value, and the título may have been paid in part since.
  const valor = BigInt(i.abatimento!) < BigInt(i.saldo) ? BigInt(i.abatimento!) : BigInt(i.saldo)
  if (valor <= 0n) return
  // An abatimento that takes the rest of a balance paid in part settles the título (red team: it was left acquired
  // at zero): the deságio it had left is recognised, as a liquidation's would be.
  const quitado = valor === BigInt(i.saldo)
  const desagio = quitado ? BigInt(i.desagio_pendente) : 0n
  const lancamentoId = await postEntry(tx, {
    clienteId: i.cliente_id, data: brasiliaDay(now), historico: `Abatimento confirmado pelo banco na cobrança nº ${i.cobranca_numero}`,
    origem: { tipo: 'instrucao', id: i.id }, requestId: null,
    linhas: [{ conta: 'conta_grafica_cedentes', cedenteId: i.cedente_id, debito: valor }, { conta: 'direitos_creditorios', credito: valor },
      ...(desagio > 0n ? [{ conta: 'desagio_a_apropriar' as const, debito: desagio }, { conta: 'receita_desagio' as const, credito: desagio }] : [])],
  }, now)
  await tx.execute(sql`UPDATE titulos SET saldo_centavos = saldo_centavos - ${valor.toString()}::bigint,
      estado = CASE WHEN ${quitado} THEN 'liquidado' ELSE estado END,
      desagio_apropriado_centavos = desagio_apropriado_centavos + ${desagio.toString()}::bigint, atualizado_em = ${now.toISOString()}::timestamptz
    WHERE id = ${i.titulo_id}::uuid`)
  await tx.execute(sql`UPDATE cobranca_instrucoes SET lancamento_id = ${lancamentoId}::uuid WHERE id = ${i.id}::uuid`)
}

// The buy-backs' rows (migration 0042) and what a buy-back reads of its títulos: each locked, with its open balance,
// the deságio it has not earned, its sacado's document, whether its operation's product carries the cedente's
// coobrigação, and the terms of its live charge (what the late charges are computed by).
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import type { Lugar } from '../feriados.ts'

export type TituloARecomprar = {
  id: string, numero: string, estado: string, saldo: bigint, vencimento: string, cedenteId: string, desagioPendente: bigint, sacadoDocumento: string,
  sacadoLugar: Lugar,
  coobrigacao: boolean, juros: { tipo: string, valorCentavos: bigint | null, taxaMensal: string | null } | null, multa: string | null,
}

type Row = {
  id: string, numero: string, estado: string, saldo: string, vencimento: string, cedente_id: string, pendente: string, documento: string,
  municipio_ibge: string | null, uf: string | null,
  coobrigacao: boolean | null, juros_tipo: string | null, juros_valor: string | null, juros_taxa: string | null, multa: string | null
}

/** The títulos asked for, locked in a fixed order (by id): the customer's only (row security). */
export async function lockTitulos(tx: Orm, ids: readonly string[]): Promise<TituloARecomprar[]> {
  const rows = await queryRows<Row>(tx, sql`SELECT t.id, t.numero, t.estado, t.saldo_centavos::text AS saldo, t.vencimento::text AS vencimento,
      t.cedente_id, (coalesce(t.desagio_centavos, 0) - t.desagio_apropriado_centavos)::text AS pendente, s.documento, s.municipio_ibge, s.uf, pv.coobrigacao,
      c.juros_tipo, c.juros_valor_centavos::text AS juros_valor, c.juros_taxa_mensal::text AS juros_taxa, c.multa_percentual::text AS multa
    FROM titulos t
    JOIN sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
    JOIN operacoes o ON o.cliente_id = t.cliente_id AND o.id = t.operacao_id
    LEFT JOIN cotacoes q ON q.cliente_id = o.cliente_id AND q.operacao_id = o.id AND q.versao = o.cotacao_aceita
    LEFT JOIN produto_versoes pv ON pv.cliente_id = o.cliente_id AND pv.produto_id = o.produto_id AND pv.versao = q.produto_versao
    LEFT JOIN cobrancas c ON c.cliente_id = t.cliente_id AND c.titulo_id = t.id AND c.estado IN ('a_registrar', 'registrada')
    WHERE t.id = ANY(${sql.param([...ids])}::uuid[]) ORDER BY t.id FOR UPDATE OF t`)
  return rows.map((r) => ({
    id: r.id, numero: r.numero, estado: r.estado, saldo: BigInt(r.saldo), vencimento: r.vencimento, cedenteId: r.cedente_id,
    desagioPendente: BigInt(r.pendente), sacadoDocumento: r.documento, sacadoLugar: { municipioIbge: r.municipio_ibge, uf: r.uf },
    coobrigacao: r.coobrigacao === true,
    juros: r.juros_tipo ? { tipo: r.juros_tipo, valorCentavos: r.juros_valor === null ? null : BigInt(r.juros_valor), taxaMensal: r.juros_taxa } : null,
    multa: r.multa,
  }))
}

export type NovaRecompra = {
  clienteId: string, cedenteId: string, motivo: string, descricao: string, forma: string, coobrigacao: boolean, data: string,
  principal: bigint, encargos: bigint, lancamentoId: string,
  titulos: { id: string, saldo: bigint, juros: bigint, multa: bigint, desagio: bigint }[]
}

export type Recompra = {
  id: string, seq: number, cedenteId: string, motivo: string, descricao: string, forma: string, coobrigacao: boolean, data: string,
  principalCentavos: number, encargosCentavos: number, valorCentavos: number, estado: string, lancamentoId: string, idTransacao: string | null,
  pagoEm: Date | null, pagamentoLancamentoId: string | null, operacaoId: string | null, criadoEm: Date, atualizadoEm: Date,
  canceladaEm: Date | null, motivoCancelamento: string | null, cancelamentoLancamentoId: string | null,
  titulos: { tituloId: string, saldoCentavos: number, jurosCentavos: number, multaCentavos: number, desagioReconhecidoCentavos: number }[]
}

/** The buy-back under `id` (its entry's origin names it already) and its títulos. */
export async function insertRecompra(tx: Orm, r: NovaRecompra, now: Date, id: string): Promise<string> {
  const at = now.toISOString()
  const [made] = await queryRows<{ id: string }>(tx, sql`INSERT INTO recompras (id, cliente_id, cedente_id, motivo, descricao, forma, coobrigacao, data,
      principal_centavos, encargos_centavos, valor_centavos, lancamento_id, criado_em, atualizado_em)
    VALUES (${id}::uuid, ${r.clienteId}::uuid, ${r.cedenteId}::uuid, ${r.motivo}, ${r.descricao}, ${r.forma}, ${r.coobrigacao}, ${r.data}::date,
      ${r.principal.toString()}::bigint, ${r.encargos.toString()}::bigint, ${(r.principal + r.encargos).toString()}::bigint, ${r.lancamentoId}::uuid,
      ${at}::timestamptz, ${at}::timestamptz)
    RETURNING id`)
  const col = <T>(f: (t: NovaRecompra['titulos'][number]) => T) => sql.param(r.titulos.map(f))
  await tx.execute(sql`INSERT INTO recompra_titulos (cliente_id, recompra_id, titulo_id, saldo_centavos, juros_centavos, multa_centavos,
      desagio_reconhecido_centavos)
    SELECT ${r.clienteId}::uuid, ${made!.id}::uuid, u.t, u.s, u.j, u.m, u.d
      FROM unnest(${col((t) => t.id)}::uuid[], ${col((t) => t.saldo.toString())}::bigint[], ${col((t) => t.juros.toString())}::bigint[],
        ${col((t) => t.multa.toString())}::bigint[], ${col((t) => t.desagio.toString())}::bigint[]) AS u(t, s, j, m, d)`)
  return made!.id
}

type RecompraRow = {
  id: string, seq: string, cedente_id: string, motivo: string, descricao: string, forma: string, coobrigacao: boolean, data: string, principal: string,
  encargos: string, valor: string, estado: string, lancamento_id: string, id_transacao: string | null, pago_em: string | null,
  pagamento_lancamento_id: string | null, operacao_id: string | null, criado_em: string, atualizado_em: string,
  cancelada_em: string | null, motivo_cancelamento: string | null, cancelamento_lancamento_id: string | null,
  titulos: { titulo_id: string, saldo_centavos: number, juros_centavos: number, multa_centavos: number, desagio_reconhecido_centavos: number }[]
}

const COLUMNS = sql`r.id, r.seq::text AS seq, r.cedente_id, r.motivo, r.descricao, r.forma, r.coobrigacao, r.data::text AS data,
  r.principal_centavos::text AS principal, r.encargos_centavos::text AS encargos, r.valor_centavos::text AS valor, r.estado, r.lancamento_id,
  r.id_transacao, r.pago_em::text AS pago_em, r.pagamento_lancamento_id, r.operacao_id, r.criado_em::text AS criado_em,
  r.atualizado_em::text AS atualizado_em, r.cancelada_em::text AS cancelada_em, r.motivo_cancelamento, r.cancelamento_lancamento_id,
  (SELECT coalesce(json_agg(json_build_object('titulo_id', x.titulo_id, 'saldo_centavos', x.saldo_centavos, 'juros_centavos', x.juros_centavos,
     'multa_centavos', x.multa_centavos, 'desagio_reconhecido_centavos', x.desagio_reconhecido_centavos) ORDER BY x.titulo_id), '[]'::json)
   FROM recompra_titulos x WHERE x.cliente_id = r.cliente_id AND x.recompra_id = r.id) AS titulos`

const recompraOf = (r: RecompraRow): Recompra => ({
  id: r.id, seq: Number(r.seq), cedenteId: r.cedente_id, motivo: r.motivo, descricao: r.descricao, forma: r.forma, coobrigacao: r.coobrigacao,
  data: r.data, principalCentavos: Number(r.principal), encargosCentavos: Number(r.encargos), valorCentavos: Number(r.valor), estado: r.estado,
  lancamentoId: r.lancamento_id, idTransacao: r.id_transacao, pagoEm: r.pago_em ? new Date(r.pago_em) : null,
  pagamentoLancamentoId: r.pagamento_lancamento_id, operacaoId: r.operacao_id, criadoEm: new Date(r.criado_em), atualizadoEm: new Date(r.atualizado_em),
  canceladaEm: r.cancelada_em ? new Date(r.cancelada_em) : null, motivoCancelamento: r.motivo_cancelamento,
  cancelamentoLancamentoId: r.cancelamento_lancamento_id,
  titulos: r.titulos.map((t) => ({
    tituloId: t.titulo_id, saldoCentavos: Number(t.saldo_centavos), jurosCentavos: Number(t.juros_centavos), multaCentavos: Number(t.multa_centavos),
    desagioReconhecidoCentavos: Number(t.desagio_reconhecido_centavos),
  })),
})

export async function getRecompra(tx: Orm, id: string, lock = false): Promise<Recompra | undefined> {
  const [row] = await queryRows<RecompraRow>(tx, sql`SELECT ${COLUMNS} FROM recompras r WHERE r.id = ${id}::uuid ${lock ? sql`FOR UPDATE OF r` : sql``}`)
  return row && recompraOf(row)
}

export async function listRecompras(tx: Orm, f: { cedenteId?: string, estado?: string }, page: { limit: number, before?: number }): Promise<Recompra[]> {
  const rows = await queryRows<RecompraRow>(tx, sql`SELECT ${COLUMNS} FROM recompras r WHERE true
    ${f.cedenteId ? sql`AND r.cedente_id = ${f.cedenteId}::uuid` : sql``} ${f.estado ? sql`AND r.estado = ${f.estado}` : sql``}
    ${page.before ? sql`AND r.seq < ${page.before}` : sql``} ORDER BY r.seq DESC LIMIT ${page.limit + 1}`)
  return rows.map(recompraOf)
}

export async function setPaid(tx: Orm, id: string, p: { idTransacao: string, pagoEm: string, lancamentoId: string }, now: Date): Promise<void> {
  await tx.execute(sql`UPDATE recompras SET estado = 'paga', id_transacao = ${p.idTransacao}, pago_em = ${p.pagoEm}::timestamptz,
      pagamento_lancamento_id = ${p.lancamentoId}::uuid, atualizado_em = ${now.toISOString()}::timestamptz
    WHERE id = ${id}::uuid`)
}

/**
 * The buy-back cancelled: its títulos acquired again with the balances and the deságio not yet earned that it took
 * (recompra_titulos keeps them), its rows no longer live (a título may be bought back again), its state, reason and
 * reversing entry recorded.
 */
export async function cancelRecompra(tx: Orm, r: Recompra, c: { motivo: string, lancamentoId: string }, now: Date): Promise<void> {
  const at = now.toISOString()
  await tx.execute(sql`UPDATE titulos t SET estado = 'adquirido', saldo_centavos = x.saldo_centavos,
      desagio_apropriado_centavos = t.desagio_apropriado_centavos - x.desagio_reconhecido_centavos, atualizado_em = ${at}::timestamptz
    FROM recompra_titulos x WHERE x.cliente_id = t.cliente_id AND x.titulo_id = t.id AND x.recompra_id = ${r.id}::uuid AND x.ativa
      AND t.estado = 'recomprado'`)
  await tx.execute(sql`UPDATE recompra_titulos SET ativa = false WHERE recompra_id = ${r.id}::uuid`)
  await tx.execute(sql`UPDATE recompras SET estado = 'cancelada', cancelada_em = ${at}::timestamptz, motivo_cancelamento = ${c.motivo},
      cancelamento_lancamento_id = ${c.lancamentoId}::uuid, atualizado_em = ${at}::timestamptz
    WHERE id = ${r.id}::uuid`)
}

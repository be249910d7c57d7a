// The registry's rows (migration 0050), in the customer's transaction: the requests waiting for the registradora, the
// título's place in the registry, and the mirror of what the registry said (append-only: the table refuses changes).
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../platform/db/database.ts'
import type { Consulta, TipoPedido } from './adapter.ts'

export type PedidoRow = {
  id: string, titulo_id: string, tipo: TipoPedido, estado: string, tentativas: number, protocolo: string | null, proxima_em: Date, erro: string | null,
  resposta: unknown, criado_em: Date, concluido_em: Date | null,
}

/** A request with what the registradora must be told of its duplicata and its buyer. */
export type PedidoToSend = PedidoRow & {
  numero: string, chave_nfe: string | null, emissao: string, vencimento: string, valor_face_centavos: string, registro_estado: string,
  cedente_documento: string, sacado_documento: string, cliente_documento: string | null, cliente_nome: string,
}

const dates = <R extends { proxima_em: Date, criado_em: Date, concluido_em: Date | null }>(r: R): R => ({
  ...r, proxima_em: new Date(r.proxima_em), criado_em: new Date(r.criado_em), concluido_em: r.concluido_em && new Date(r.concluido_em),
})

/**
 * A value as jsonb text: PostgreSQL's jsonb takes no NUL character and no lone surrogate, either of which an outside
 * answer may hold: each becomes U+FFFD.
 */
// eslint-disable-next-line no-control-regex -- the NUL is what it replaces
const JSONB_UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const jsonb = (v: unknown): string => JSON.stringify(v ?? null, (_k, x: unknown) => (typeof x === 'string'
  ? x.replace(JSONB_UNSAFE, '\ufffd') : x))

const PEDIDO = sql`p.id, p.titulo_id, p.tipo, p.estado, p.tentativas, p.protocolo, p.proxima_em, p.erro, p.resposta, p.criado_em, p.concluido_em`

export async function pedidoToSend(tx: Orm, id: string): Promise<PedidoToSend | undefined> {
  const [r] = await queryRows<PedidoToSend>(tx, sql`SELECT ${PEDIDO}, t.numero, t.chave_nfe, t.emissao::text AS emissao, t.vencimento::text AS vencimento,
      t.valor_face_centavos::text AS valor_face_centavos, t.registro_estado, ce.documento AS cedente_documento, s.documento AS sacado_documento,
      cl.documento AS cliente_documento, cl.nome AS cliente_nome
    FROM registro_pedidos p JOIN titulos t ON t.cliente_id = p.cliente_id AND t.id = p.titulo_id
      JOIN cedentes ce ON ce.cliente_id = t.cliente_id AND ce.id = t.cedente_id
      JOIN sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
      JOIN clientes cl ON cl.id = p.cliente_id
    WHERE p.id = ${id}::uuid AND p.estado IN ('pendente', 'processando') FOR UPDATE OF p`)
  return r && dates(r)
}

/** A query asked by a person: a new request, and the título waiting for its answer (unless its assignment is under way). */
export async function askQuery(tx: Orm, clienteId: string, tituloId: string, now: Date): Promise<string> {
  const at = now.toISOString()
  const [r] = await queryRows<{ id: string }>(tx, sql`INSERT INTO registro_pedidos (cliente_id, titulo_id, tipo, proxima_em, criado_em, atualizado_em)
    VALUES (${clienteId}::uuid, ${tituloId}::uuid, 'consulta', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz) RETURNING id`)
  await tx.execute(sql`UPDATE titulos SET registro_estado = 'consulta_pendente', registro_situacao = NULL
    WHERE id = ${tituloId}::uuid AND registro_estado IN ('nao_consultado', 'livre', 'impedido')`)
  return r!.id
}

/** The assignment asked again, after the registradora refused it (the buyer sorted it out with the registry): a new request. */
export async function askAssignmentAgain(tx: Orm, clienteId: string, tituloId: string, now: Date): Promise<string> {
  const at = now.toISOString()
  const [r] = await queryRows<{ id: string }>(tx, sql`INSERT INTO registro_pedidos (cliente_id, titulo_id, tipo, proxima_em, criado_em, atualizado_em)
    VALUES (${clienteId}::uuid, ${tituloId}::uuid, 'cessao', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz) RETURNING id`)
  await tx.execute(sql`UPDATE titulos SET registro_estado = 'cessao_pendente', registro_situacao = NULL WHERE id = ${tituloId}::uuid`)
  return r!.id
}

/** An open query of the título: asking again while one waits answers it instead of sending a second. */
export async function openQuery(tx: Orm, tituloId: string): Promise<string | undefined> {
  const [r] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM registro_pedidos WHERE titulo_id = ${tituloId}::uuid AND tipo = 'consulta'
    AND estado IN ('pendente', 'processando') ORDER BY seq DESC LIMIT 1`)
  return r?.id
}

export async function pedidosOf(tx: Orm, tituloId: string): Promise<PedidoRow[]> {
  const rows = await queryRows<PedidoRow>(tx, sql`SELECT ${PEDIDO} FROM registro_pedidos p WHERE p.titulo_id = ${tituloId}::uuid ORDER BY p.seq DESC LIMIT 200`)
  return rows.map(dates)
}

export async function getPedido(tx: Orm, id: string): Promise<PedidoRow | undefined> {
  const [r] = await queryRows<PedidoRow>(tx, sql`SELECT ${PEDIDO} FROM registro_pedidos p WHERE p.id = ${id}::uuid`)
  return r && dates(r)
}

export type MirrorRow = { id: string, pedido_id: string, tipo: string, situacao: string, protocolo: string | null, dados: unknown, criado_em: Date }

export async function mirrorOf(tx: Orm, tituloId: string): Promise<MirrorRow[]> {
  const rows = await queryRows<MirrorRow>(tx, sql`SELECT id, pedido_id, tipo, situacao, protocolo, dados, criado_em FROM registro_eventos
    WHERE titulo_id = ${tituloId}::uuid ORDER BY seq LIMIT 1000`)
  return rows.map((r) => ({ ...r, criado_em: new Date(r.criado_em) }))
}

async function mirror(tx: Orm, p: PedidoToSend, situacao: 'recebido' | 'concluido' | 'recusado', protocolo: string | null, dados: unknown, now: Date) {
  const body = dados && typeof dados === 'object' && !Array.isArray(dados) ? dados : { resposta: dados ?? null }
  await tx.execute(sql`INSERT INTO registro_eventos (cliente_id, titulo_id, pedido_id, tipo, situacao, protocolo, dados, criado_em)
    SELECT cliente_id, titulo_id, id, tipo, ${situacao}, ${protocolo}, ${jsonb(body)}::jsonb, ${now.toISOString()}::timestamptz
      FROM registro_pedidos WHERE id = ${p.id}::uuid`)
}

/** Taken by the registradora under `protocolo`: read back at `next` unless its callback comes first. */
export async function recordTaken(tx: Orm, p: PedidoToSend, protocolo: string, resposta: unknown, next: Date, now: Date): Promise<void> {
  await tx.execute(sql`UPDATE registro_pedidos SET estado = 'processando', protocolo = ${protocolo}, proxima_em = ${next.toISOString()}::timestamptz,
      tentativas = tentativas + 1, erro = NULL, atualizado_em = ${now.toISOString()}::timestamptz WHERE id = ${p.id}::uuid`)
  if (p.estado === 'pendente') await mirror(tx, p, 'recebido', protocolo, resposta, now)
}

/**
 * What a query found, in the service's words: free, or why not (the order is the order a buyer cares). A duplicata
 * assigned already, even to this customer, is not free: a título not yet being registered would buy it twice.
 */
export function verdict(c: Consulta, p: Pick<PedidoToSend, 'cedente_documento' | 'valor_face_centavos' | 'cliente_documento'>): string {
  if (c.situacao !== 'ativa') return 'duplicata_encerrada'
  if (c.titular !== p.cedente_documento) return 'titular_divergente'
  if (c.cessionario !== null) return c.cessionario === p.cliente_documento ? 'ja_cedida_ao_cliente' : 'cedida_a_terceiro'
  if (c.onus.length) return 'onerada'
  if (c.valorCentavos !== BigInt(p.valor_face_centavos)) return 'valor_divergente'
  return 'livre'
}

/** The states a query's result may move a título from: never back from its assignment. */
const QUERYABLE = sql`('nao_consultado', 'consulta_pendente', 'livre', 'impedido')`

async function setTitle(tx: Orm, p: PedidoToSend, estado: string, situacao: string | null, where = sql``): Promise<void> {
  await tx.execute(sql`UPDATE titulos SET registro_estado = ${estado}, registro_situacao = ${situacao} WHERE id = ${p.titulo_id}::uuid ${where}`)
}

export async function recordDone(tx: Orm, p: PedidoToSend, protocolo: string, consulta: Consulta | undefined, resposta: unknown, now: Date): Promise<void> {
  await tx.execute(sql`UPDATE registro_pedidos SET estado = 'concluido', protocolo = ${protocolo}, resposta = ${jsonb(resposta)}::jsonb,
      erro = NULL, concluido_em = ${now.toISOString()}::timestamptz, atualizado_em = ${now.toISOString()}::timestamptz WHERE id = ${p.id}::uuid`)
  await mirror(tx, p, 'concluido', protocolo, resposta, now)
  if (p.tipo === 'consulta') {
    const v = consulta ? verdict(consulta, p) : 'resposta_sem_resultado'
    await setTitle(tx, p, v === 'livre' ? 'livre' : 'impedido', v === 'livre' ? null : v, sql`AND registro_estado IN ${QUERYABLE}`)
  } else {
    await setTitle(tx, p, { cessao: 'cedido', pagamento: 'quitado', baixa: 'baixado' }[p.tipo], null)
  }
}

export async function recordRefused(tx: Orm, p: PedidoToSend, codigo: string, motivo: string, resposta: unknown, now: Date): Promise<void> {
  await tx.execute(sql`UPDATE registro_pedidos SET estado = 'recusado', resposta = ${jsonb({ codigo, motivo, resposta: resposta ?? null })}::jsonb,
      erro = ${motivo.replaceAll('\u0000', '').slice(0, 500)}, concluido_em = ${now.toISOString()}::timestamptz,
      atualizado_em = ${now.toISOString()}::timestamptz
    WHERE id = ${p.id}::uuid`)
  await mirror(tx, p, 'recusado', p.protocolo, { codigo, motivo, resposta: resposta ?? null }, now)
  const code = /^[a-z_]{1,60}$/.test(codigo) ? codigo : 'recusado'
  if (p.tipo === 'consulta') await setTitle(tx, p, 'impedido', code, sql`AND registro_estado IN ${QUERYABLE}`)
  else if (p.tipo === 'cessao') await setTitle(tx, p, 'cessao_recusada', code)
  else await tx.execute(sql`UPDATE titulos SET registro_situacao = ${code} WHERE id = ${p.titulo_id}::uuid`)
}

/** `resend`: the registradora lost the request's protocol: it goes again, under its id, as if never sent. */
export async function recordPostponed(tx: Orm, p: PedidoToSend, next: Date, motivo: string, now: Date, resend = false): Promise<void> {
  await tx.execute(sql`UPDATE registro_pedidos SET tentativas = tentativas + 1, proxima_em = ${next.toISOString()}::timestamptz,
      ${resend ? sql`estado = 'pendente',` : sql``}
      erro = ${motivo.replaceAll('\u0000', '').slice(0, 500)}, atualizado_em = ${now.toISOString()}::timestamptz WHERE id = ${p.id}::uuid`)
}

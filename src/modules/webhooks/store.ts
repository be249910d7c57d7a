// The webhooks' rows, read and written in the customer's transaction (row-level security keeps each customer's own).
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../platform/db/database.ts'

export type WebhookRow = {
  id: string, seq: number, url: string, descricao: string | null, eventos: string[], ativo: boolean, motivo_desativacao: string | null,
  desativado_em: Date | null, falhando_desde: Date | null, segredo_anterior_ate: Date | null, criado_em: Date, atualizado_em: Date,
  pendentes: number,
}

const COLUMNS = sql`w.id, w.seq::float8 AS seq, w.url, w.descricao, w.eventos, w.ativo, w.motivo_desativacao, w.desativado_em, w.falhando_desde,
  CASE WHEN w.segredo_anterior_ate > clock_timestamp() THEN w.segredo_anterior_ate END AS segredo_anterior_ate, w.criado_em, w.atualizado_em,
  (SELECT count(*)::int FROM webhook_entregas e WHERE e.cliente_id = w.cliente_id AND e.webhook_id = w.id
    AND e.estado IN ('pendente', 'enviando', 'retida'))
    AS pendentes`

const asDates = (r: WebhookRow): WebhookRow => ({
  ...r, seq: Number(r.seq), criado_em: new Date(r.criado_em), atualizado_em: new Date(r.atualizado_em),
  desativado_em: r.desativado_em && new Date(r.desativado_em), falhando_desde: r.falhando_desde && new Date(r.falhando_desde),
  segredo_anterior_ate: r.segredo_anterior_ate && new Date(r.segredo_anterior_ate),
})

/** The customer's live endpoints, counted under a lock of the customer's endpoints: two creations at once count each other. */
export async function countLive(tx: Orm, clienteId: string): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${clienteId}`}, 0))`)
  const [r] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM webhooks WHERE excluido_em IS NULL`)
  return r!.n
}

export async function insertWebhook(tx: Orm, w: { id: string, clienteId: string, url: string, descricao: string | null, eventos: string[],
  segredoCifrado: string, now: Date }): Promise<void> {
  await tx.execute(sql`INSERT INTO webhooks (id, cliente_id, url, descricao, eventos, segredo_cifrado, criado_em, atualizado_em)
    VALUES (${w.id}::uuid, ${w.clienteId}::uuid, ${w.url}, ${w.descricao}, ${sql.param(w.eventos)}::text[], ${w.segredoCifrado},
      ${w.now.toISOString()}::timestamptz, ${w.now.toISOString()}::timestamptz)`)
}

/** A live (not deleted) endpoint, locked when asked. */
export async function getWebhook(tx: Orm, id: string, lock = false): Promise<WebhookRow | undefined> {
  const [r] = await queryRows<WebhookRow>(tx, sql`SELECT ${COLUMNS} FROM webhooks w WHERE w.id = ${id}::uuid AND w.excluido_em IS NULL
    ${lock ? sql`FOR UPDATE` : sql``}`)
  return r && asDates(r)
}

export async function listWebhooks(tx: Orm, page: { limit: number, before?: number }): Promise<WebhookRow[]> {
  const rows = await queryRows<WebhookRow>(tx, sql`SELECT ${COLUMNS} FROM webhooks w WHERE w.excluido_em IS NULL
    ${page.before === undefined ? sql`` : sql`AND w.seq < ${page.before}`} ORDER BY w.seq DESC LIMIT ${page.limit + 1}`)
  return rows.map(asDates)
}

export type WebhookPatch = { url?: string, descricao?: string | null, eventos?: string[], ativo?: boolean }

export async function updateWebhook(tx: Orm, id: string, p: WebhookPatch, now: Date): Promise<void> {
  const at = now.toISOString()
  const sets = [sql`atualizado_em = ${at}::timestamptz`]
  if (p.url !== undefined) sets.push(sql`url = ${p.url}`)
  if (p.descricao !== undefined) sets.push(sql`descricao = ${p.descricao}`)
  if (p.eventos !== undefined) sets.push(sql`eventos = ${sql.param(p.eventos)}::text[]`)
  await tx.execute(sql`UPDATE webhooks SET ${sql.join(sets, sql`, `)} WHERE id = ${id}::uuid AND excluido_em IS NULL`)
  // On or off: only where it changes (an endpoint already off keeps when and why it went off), its queue with it.
  if (p.ativo === true) {
    await tx.execute(sql`UPDATE webhooks SET ativo = true, motivo_desativacao = NULL, desativado_em = NULL, falhando_desde = NULL
      WHERE id = ${id}::uuid AND excluido_em IS NULL AND NOT ativo`)
    await releaseQueue(tx, id)
  } else if (p.ativo === false) {
    await tx.execute(sql`UPDATE webhooks SET ativo = false, motivo_desativacao = 'cliente', desativado_em = ${at}::timestamptz
      WHERE id = ${id}::uuid AND excluido_em IS NULL AND ativo`)
    await holdQueue(tx, id)
  }
}

/** An endpoint turned off: its waiting deliveries held, out of the worker's way. */
export async function holdQueue(tx: Orm, webhookId: string): Promise<void> {
  await tx.execute(sql`UPDATE webhook_entregas SET estado = 'retida' WHERE webhook_id = ${webhookId}::uuid AND estado = 'pendente'`)
}

/** An endpoint turned on again: what it held is due now, and goes in order. */
export async function releaseQueue(tx: Orm, webhookId: string): Promise<void> {
  await tx.execute(sql`UPDATE webhook_entregas SET estado = 'pendente', proxima_em = clock_timestamp()
    WHERE webhook_id = ${webhookId}::uuid AND estado = 'retida'`)
}

/** The grace is counted on the database's clock, the one the worker signs by. */
export async function rotateSecret(tx: Orm, id: string, o: { sealed: string, previousSealed: string | null, graceHours: number, now: Date }):
Promise<void> {
  await tx.execute(sql`UPDATE webhooks SET segredo_cifrado = ${o.sealed}, segredo_anterior_cifrado = ${o.previousSealed},
      segredo_anterior_ate = CASE WHEN ${o.previousSealed}::text IS NULL THEN NULL ELSE clock_timestamp() + make_interval(hours => ${o.graceHours}) END,
      atualizado_em = ${o.now.toISOString()}::timestamptz
    WHERE id = ${id}::uuid AND excluido_em IS NULL`)
}

export async function sealedSecret(tx: Orm, id: string): Promise<string | undefined> {
  const [r] = await queryRows<{ s: string }>(tx, sql`SELECT segredo_cifrado AS s FROM webhooks WHERE id = ${id}::uuid AND excluido_em IS NULL`)
  return r?.s
}

/** Deleted: off for good, its open deliveries cancelled; its rows and log stay. */
export async function deleteWebhook(tx: Orm, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString()
  const done = await queryRows<{ id: string }>(tx, sql`UPDATE webhooks SET excluido_em = ${at}::timestamptz, ativo = false,
      motivo_desativacao = 'cliente', desativado_em = COALESCE(desativado_em, ${at}::timestamptz), atualizado_em = ${at}::timestamptz
    WHERE id = ${id}::uuid AND excluido_em IS NULL RETURNING id`)
  if (done.length === 0) return false
  // A try in hand too: its outcome then finds it cancelled and records nothing.
  await tx.execute(sql`UPDATE webhook_entregas SET estado = 'cancelada', atualizado_em = ${at}::timestamptz
    WHERE webhook_id = ${id}::uuid AND estado IN ('pendente', 'enviando', 'retida')`)
  return true
}

export type DeliveryRow = {
  id: string, seq: number, evento_id: string, tipo: string, recurso: string, evento_criado_em: Date, estado: string, tentativas: number,
  proxima_em: Date, manual: boolean, ultimo_status: number | null, ultimo_erro: string | null, entregue_em: Date | null, criado_em: Date,
}

const DELIVERY = sql`e.id, e.seq::float8 AS seq, e.evento_id, v.tipo, e.recurso, v.criado_em AS evento_criado_em, e.estado, e.tentativas, e.proxima_em,
  e.manual, e.ultimo_status, e.ultimo_erro, e.entregue_em, e.criado_em`

const deliveryDates = (r: DeliveryRow): DeliveryRow => ({
  ...r, seq: Number(r.seq), evento_criado_em: new Date(r.evento_criado_em), proxima_em: new Date(r.proxima_em),
  entregue_em: r.entregue_em && new Date(r.entregue_em), criado_em: new Date(r.criado_em),
})

export async function listDeliveries(tx: Orm, webhookId: string,
  f: { limit: number, before?: number, estado?: string, tipo?: string, eventoId?: string }):
Promise<DeliveryRow[]> {
  const rows = await queryRows<DeliveryRow>(tx, sql`SELECT ${DELIVERY} FROM webhook_entregas e
      JOIN eventos v ON v.cliente_id = e.cliente_id AND v.id = e.evento_id
    WHERE e.webhook_id = ${webhookId}::uuid
      ${f.before === undefined ? sql`` : sql`AND e.seq < ${f.before}`}
      ${f.estado === undefined ? sql`` : sql`AND e.estado = ${f.estado}`}
      ${f.tipo === undefined ? sql`` : sql`AND v.tipo = ${f.tipo}`}
      ${f.eventoId === undefined ? sql`` : sql`AND e.evento_id = ${f.eventoId}::uuid`}
    ORDER BY e.seq DESC LIMIT ${f.limit + 1}`)
  return rows.map(deliveryDates)
}

export type AttemptRow = { numero: number, em: Date, status_http: number | null, latencia_ms: number, erro: string | null, resposta: string | null }

export async function getDelivery(tx: Orm, webhookId: string, id: string):
Promise<(DeliveryRow & { dados: Record<string, unknown>, tentativas_log: AttemptRow[] }) | undefined> {
  const [r] = await queryRows<DeliveryRow & { dados: Record<string, unknown> }>(tx, sql`SELECT ${DELIVERY}, v.dados FROM webhook_entregas e
      JOIN eventos v ON v.cliente_id = e.cliente_id AND v.id = e.evento_id
    WHERE e.webhook_id = ${webhookId}::uuid AND e.id = ${id}::uuid`)
  if (!r) return undefined
  const attempts = await queryRows<AttemptRow>(tx, sql`SELECT numero, em, status_http, latencia_ms, erro, resposta FROM webhook_tentativas
    WHERE entrega_id = ${id}::uuid ORDER BY id`)
  return { ...deliveryDates(r), dados: r.dados, tentativas_log: attempts.map((a) => ({ ...a, em: new Date(a.em) })) }
}

/**
 * A new delivery of the same event to the same endpoint, due now: the receiver gets the event's id again. While a
 * delivery of the event is still open for the endpoint that one is answered instead: redeliveries never pile up.
 */
export async function redeliver(tx: Orm, webhookId: string, id: string): Promise<string | undefined> {
  // Redeliveries of one endpoint one at a time: two at once would each see no open delivery of the event.
  await tx.execute(sql`SELECT id FROM webhooks WHERE id = ${webhookId}::uuid FOR UPDATE`)
  const [source] = await queryRows<{ evento_id: string }>(tx, sql`SELECT evento_id FROM webhook_entregas
    WHERE webhook_id = ${webhookId}::uuid AND id = ${id}::uuid FOR UPDATE`)
  if (!source) return undefined
  const [open] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM webhook_entregas WHERE webhook_id = ${webhookId}::uuid
    AND evento_id = ${source.evento_id}::uuid AND estado IN ('pendente', 'enviando', 'retida') ORDER BY seq DESC LIMIT 1`)
  if (open) return open.id
  const [r] = await queryRows<{ id: string }>(tx, sql`INSERT INTO webhook_entregas (cliente_id, webhook_id, evento_id, evento_seq, recurso, proxima_em,
      manual, estado)
    SELECT e.cliente_id, e.webhook_id, e.evento_id, e.evento_seq, e.recurso, clock_timestamp(), true, CASE WHEN w.ativo THEN 'pendente' ELSE 'retida' END
      FROM webhook_entregas e JOIN webhooks w ON w.id = e.webhook_id WHERE e.webhook_id = ${webhookId}::uuid AND e.id = ${id}::uuid
    RETURNING id`)
  return r?.id
}

/**
 * A test event for this endpoint alone (`webhook.teste`), due now: what an integrator sends to see a delivery arrive
 * without changing real data. Its own resource, so it waits for nothing.
 */
export async function pingDelivery(tx: Orm, w: { id: string, clienteId: string }): Promise<string> {
  // One at a time: while a test delivery is open, it is the answer.
  await tx.execute(sql`SELECT id FROM webhooks WHERE id = ${w.id}::uuid FOR UPDATE`)
  const [open] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM webhook_entregas WHERE webhook_id = ${w.id}::uuid
    AND recurso = ${`webhook:${w.id}`} AND estado IN ('pendente', 'enviando', 'retida') LIMIT 1`)
  if (open) return open.id
  const [e] = await queryRows<{ id: string, seq: string }>(tx, sql`INSERT INTO eventos (cliente_id, tipo, recurso, dados)
    VALUES (${w.clienteId}::uuid, 'webhook.teste', ${`webhook:${w.id}`},
      jsonb_build_object('webhook_id', ${w.id}::text, 'mensagem', 'Evento de teste: a assinatura e o corpo são os de qualquer evento.'))
    RETURNING id, seq`)
  const [d] = await queryRows<{ id: string }>(tx, sql`INSERT INTO webhook_entregas (cliente_id, webhook_id, evento_id, evento_seq, recurso, proxima_em, manual,
      estado)
    SELECT ${w.clienteId}::uuid, ${w.id}::uuid, ${e!.id}::uuid, ${e!.seq}::bigint, ${`webhook:${w.id}`}, clock_timestamp(), true,
      CASE WHEN ativo THEN 'pendente' ELSE 'retida' END FROM webhooks WHERE id = ${w.id}::uuid
    RETURNING id`)
  return d!.id
}

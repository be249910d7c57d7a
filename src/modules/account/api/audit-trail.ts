// The customer's audit trail as people read it (issue 32, item 8): each row with the name of who acted (the
// person's, or the token's) and of what it acted on ("Operação nº 12", a cedente's name), filtered in SQL by who,
// what, on what and when, newest first a page at a time. The names are read in the same query, each by its table's
// primary key, under the customer's row-level security: another customer's rows and names never come.
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { auditoriaCliente as A } from '../../../platform/db/schema.ts'
import { AUDIT_PAGE_MAX } from '../../../platform/tenancy/audit/store.ts'

export type AuditFilter = { atorId?: string, acao?: string, alvoId?: string, de?: string, ate?: string }

/** Brasília's day `day` (UTC−3 all year since 2019) from its first instant; `next` the day after's. */
const dayStart = (day: string, next = false) => {
  const d = new Date(`${day}T00:00:00-03:00`)
  if (next) d.setUTCDate(d.getUTCDate() + 1)
  return d
}

const kind = sql`split_part(${A.acao}, '.', 1)`
const ATOR_NOME = sql<string | null>`CASE ${A.atorTipo}
  WHEN 'usuario' THEN (SELECT u.nome FROM usuarios u WHERE u.id = ${A.atorId})
  WHEN 'token' THEN (SELECT t.nome FROM tokens t WHERE t.id = ${A.atorId}) END`
const ALVO_NOME = sql<string | null>`CASE ${kind}
  WHEN 'operacao' THEN (SELECT 'Operação nº ' || o.numero FROM operacoes o WHERE o.id = ${A.alvoId})
  WHEN 'desembolso' THEN (SELECT 'Desembolso da operação nº ' || o.numero FROM desembolsos d JOIN operacoes o ON o.id = d.operacao_id
    WHERE d.id = ${A.alvoId})
  WHEN 'cedente' THEN (SELECT c.razao_social FROM cedentes c WHERE c.id = ${A.alvoId})
  WHEN 'sacado' THEN (SELECT s.razao_social FROM sacados s WHERE s.id = ${A.alvoId})
  WHEN 'produto' THEN (SELECT p.nome FROM produtos p WHERE p.id = ${A.alvoId})
  WHEN 'feriado' THEN (SELECT f.descricao FROM feriados f WHERE f.id = ${A.alvoId})
  WHEN 'conta_cobranca' THEN (SELECT 'Conta de cobrança: ' || k.nome FROM contas_cobranca k WHERE k.id = ${A.alvoId})
  WHEN 'cobranca' THEN (SELECT 'Cobrança nº ' || b.numero FROM cobrancas b WHERE b.id = ${A.alvoId})
  WHEN 'lancamento_manual' THEN (SELECT 'Lançamento manual: ' || m.historico FROM lancamentos_manuais m WHERE m.id = ${A.alvoId})
  WHEN 'token' THEN (SELECT t.nome FROM tokens t WHERE t.id = ${A.alvoId})
  WHEN 'usuario' THEN (SELECT u.nome FROM usuarios u WHERE u.id = ${A.alvoId})
  WHEN 'login' THEN (SELECT u.nome FROM usuarios u WHERE u.id = ${A.alvoId})
  WHEN 'convite' THEN (SELECT u.nome FROM usuarios u WHERE u.id = ${A.alvoId}) END`
// A payment has no page of its own: its operation's is where it is read.
const ALVO_OPERACAO = sql<string | null>`CASE WHEN ${kind} = 'desembolso' THEN (SELECT d.operacao_id FROM desembolsos d WHERE d.id = ${A.alvoId}) END`

export async function listAuditNamed(tx: Orm, clienteId: string, page: { before?: number, limit?: number }, f: AuditFilter = {}) {
  const limit = Math.min(Math.max(page.limit ?? 50, 1), AUDIT_PAGE_MAX)
  const where: (SQL | undefined)[] = [eq(A.clienteId, clienteId), page.before === undefined ? undefined : lt(A.numero, page.before)]
  if (f.atorId) where.push(eq(A.atorId, f.atorId))
  if (f.acao) where.push(eq(A.acao, f.acao))
  if (f.alvoId) where.push(eq(A.alvoId, f.alvoId))
  if (f.de) where.push(gte(A.em, dayStart(f.de)))
  if (f.ate) where.push(lt(A.em, dayStart(f.ate, true)))
  const items = await tx.select({
    id: A.numero, em: A.em, atorTipo: A.atorTipo, atorId: A.atorId, atorNome: ATOR_NOME, acao: A.acao, alvoId: A.alvoId, alvoNome: ALVO_NOME,
    alvoOperacaoId: ALVO_OPERACAO, motivo: A.motivo, requestId: A.requestId, requestIdCliente: A.requestIdCliente, alteracoes: A.alteracoes,
  }).from(A).where(and(...where)).orderBy(desc(A.numero)).limit(limit + 1)
  const more = items.length > limit
  if (more) items.pop()
  return { items, next: more ? items.at(-1)!.id : null }
}

// GET /api/painel: the numbers a factoring's people open the day with (exposure by cedente and by sacado beside
// their limits, títulos falling due, payments waiting for a second person, today's payments, operations by
// state), computed by the database in one statement under the customer's row-level security: aggregates, never
// the rows themselves read into the process, so the answer costs the same with ten operations or a million.
import type { FastifyInstance } from 'fastify'
import { sql, type SQL } from 'drizzle-orm'
import { Type, type Static } from 'typebox'
import type { Clock } from '../../platform/lib/clock.ts'
import { queryRows, type Database, type Orm } from '../../platform/db/database.ts'
import { Centavos, Day, guardRefusals } from '../../platform/http/api-schemas.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { addDays } from '../calendar/index.ts'
import { ESTADOS_OPERACAO } from './tables.ts'

/** How many cedentes and sacados the exposure charts show: the largest first. */
export const PAINEL_TOP = 10
/** The horizons of "falling due", in days from today (Brasília's). */
export const PAINEL_PRAZOS = [7, 30] as const

const Uuid = Type.String({ format: 'uuid' })
const Amount = Type.Object({ quantidade: Type.Integer({ minimum: 0 }), valor_centavos: Centavos })
const Exposure = Type.Array(Type.Object({
  id: Uuid, razao_social: Type.String(), documento: Type.String(),
  exposicao_centavos: Centavos,
  limite_centavos: Type.Union([Centavos, Type.Null()], { description: 'Null: no limit set.' }),
}), { maxItems: PAINEL_TOP, description: `The ${PAINEL_TOP} largest exposures (open balance of acquired títulos), largest first.` })

export const PainelOut = Type.Object({
  hoje: Day,
  exposicao_cedentes: Exposure,
  exposicao_sacados: Exposure,
  vencimentos: Type.Array(Type.Object({ dias: Type.Integer(), ...Amount.properties }), {
    description: `Acquired títulos (not settled) due from today to today + dias, inclusive: ${PAINEL_PRAZOS.join(' and ')} days; `
      + 'the amount is their open balance.',
  }),
  vencidos: Type.Object(Amount.properties, { description: 'Acquired títulos due before today and not settled, with their open balance.' }),
  desembolsos_aguardando_aprovacao: Type.Object(Amount.properties, { description: 'Payments waiting for a second person\'s approval.' }),
  desembolsos_aprovados: Type.Object(Amount.properties, { description: 'Payments approved, their transfer not recorded yet.' }),
  desembolsos_pagos_hoje: Type.Object(Amount.properties, { description: 'Payments recorded as transferred today (Brasília\'s day).' }),
  operacoes_por_estado: Type.Array(Type.Object({
    estado: Type.String({ enum: [...ESTADOS_OPERACAO] }), quantidade: Type.Integer({ minimum: 0 }),
  }), { description: 'Every state, in the order an operation goes through them, zeros included.' }),
}, { description: 'The day\'s numbers, computed by the database.' })
export type Painel = Static<typeof PainelOut>

export const PAINEL_ROUTE = {
  method: 'GET', url: '/api/painel', escopo: 'operacoes',
  schema: {
    hide: true, tags: ['operacoes'], operationId: 'lerPainel', summary: 'The day\'s numbers: exposure, títulos falling due, payments, operations by state',
    response: { 200: PainelOut, ...guardRefusals('operacoes') },
  },
} as const satisfies RouteDefinition

export function dashboardRoute(deps: { db: Database, clock: Clock, budget: Budget }) {
  return async function (app: FastifyInstance) {
    const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: PAINEL_ROUTE.escopo } }
    app.get(PAINEL_ROUTE.url, { config, schema: PAINEL_ROUTE.schema }, async (request) =>
      withTenant(deps.db, request.credential!.clienteId, (tx) => readDashboard(tx, deps.clock.now())))
  }
}

type Row = { painel: Record<string, unknown> }

/** The dashboard as of `now`, in the customer's transaction `tx` (row-level security keeps it to their rows). */
export async function readDashboard(tx: Orm, now: Date): Promise<Painel> {
  const hoje = brasiliaDay(now)
  // Sums are bigint (numeric once summed) and travel as text: a JSON number would lose centavos past 2^53.
  const amount = (table: 'titulos' | 'desembolsos', value: 'saldo_centavos' | 'valor_centavos', where: SQL) => sql`(SELECT json_build_object(
    'quantidade', count(*), 'valor_centavos', coalesce(sum(${sql.raw(value)}), 0)::text) FROM ${sql.raw(table)} WHERE ${where})`
  const exposure = (kind: 'cedente' | 'sacado', table: 'cedentes' | 'sacados') => sql`(SELECT coalesce(json_agg(json_build_object('id', p.id,
    'razao_social', p.razao_social, 'documento', p.documento, 'exposicao_centavos', e.exposicao_centavos::text,
    'limite_centavos', p.limite_centavos::text) ORDER BY e.exposicao_centavos DESC, p.razao_social, p.id), '[]'::json)
    FROM (SELECT cadastro_id, exposicao_centavos FROM exposicoes WHERE tipo = ${kind} AND exposicao_centavos > 0
      ORDER BY exposicao_centavos DESC, cadastro_id LIMIT ${PAINEL_TOP}) e JOIN ${sql.raw(table)} p ON p.id = e.cadastro_id)`
  const due = PAINEL_PRAZOS.map((dias) => sql`json_build_object('dias', ${dias}::int,
    'quantidade', count(*) FILTER (WHERE vencimento <= ${addDays(hoje, dias)}::date),
    'valor_centavos', (coalesce(sum(saldo_centavos) FILTER (WHERE vencimento <= ${addDays(hoje, dias)}::date), 0))::text)`)
  const [row] = await queryRows<Row>(tx, sql`SELECT json_build_object(
    'exposicao_cedentes', ${exposure('cedente', 'cedentes')},
    'exposicao_sacados', ${exposure('sacado', 'sacados')},
    'vencimentos', (SELECT json_build_array(${sql.join(due, sql`, `)}) FROM titulos WHERE estado = 'adquirido' AND vencimento >= ${hoje}::date),
    'vencidos', ${amount('titulos', 'saldo_centavos', sql`estado = 'adquirido' AND vencimento < ${hoje}::date`)},
    'desembolsos_aguardando_aprovacao', ${amount('desembolsos', 'valor_centavos', sql`estado = 'aguardando_aprovacao'`)},
    'desembolsos_aprovados', ${amount('desembolsos', 'valor_centavos', sql`estado = 'aprovado'`)},
    'desembolsos_pagos_hoje', ${amount('desembolsos', 'valor_centavos', sql`estado = 'pago'
      AND (pago_em AT TIME ZONE 'America/Sao_Paulo')::date = ${hoje}::date`)},
    'operacoes_por_estado', (SELECT coalesce(json_object_agg(estado, n), '{}'::json) FROM (SELECT estado, count(*) AS n FROM operacoes GROUP BY estado) s)
  ) AS painel`)
  return dashboardView(hoje, row!.painel)
}

type Counted = { quantidade: number | string, valor_centavos: string }
type Exposed = { id: string, razao_social: string, documento: string, exposicao_centavos: string, limite_centavos: string | null }

function dashboardView(hoje: string, p: Record<string, unknown>): Painel {
  const counted = (c: Counted) => ({ quantidade: Number(c.quantidade), valor_centavos: Number(c.valor_centavos) })
  const exposed = (list: Exposed[]) => list.map((e) => ({
    id: e.id, razao_social: e.razao_social, documento: e.documento, exposicao_centavos: Number(e.exposicao_centavos),
    limite_centavos: e.limite_centavos === null ? null : Number(e.limite_centavos),
  }))
  const byState = p.operacoes_por_estado as Record<string, number | string>
  return {
    hoje,
    exposicao_cedentes: exposed(p.exposicao_cedentes as Exposed[]),
    exposicao_sacados: exposed(p.exposicao_sacados as Exposed[]),
    vencimentos: (p.vencimentos as (Counted & { dias: number })[]).map((v) => ({ dias: Number(v.dias), ...counted(v) })),
    vencidos: counted(p.vencidos as Counted),
    desembolsos_aguardando_aprovacao: counted(p.desembolsos_aguardando_aprovacao as Counted),
    desembolsos_aprovados: counted(p.desembolsos_aprovados as Counted),
    desembolsos_pagos_hoje: counted(p.desembolsos_pagos_hoje as Counted),
    operacoes_por_estado: ESTADOS_OPERACAO.map((estado) => ({ estado, quantidade: Number(byState[estado] ?? 0) })),
  }
}

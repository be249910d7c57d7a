// GET /api/cobrancas/painel (issue 33, from the new-user trial): what the collections side of a factoring opens the
// day with: charges waiting for the bank, registered, overdue, paid today; instructions on their way to the bank;
// retornos being applied and the lines the last thirty days left for a person to look at; the money received that
// no título claims yet (valores a identificar). One statement of aggregates under the customer's row security, as
// GET /api/painel is: the answer costs the same with ten charges or a million.
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { Type, type Static } from 'typebox'
import { queryRows, type Database, type Orm } from '../../platform/db/database.ts'
import { Centavos, Day, guardRefusals } from '../../platform/http/api-schemas.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { addDays } from '../calendar/index.ts'

/** How far back "lines left for a person" looks, in days. */
export const PAINEL_IGNORADAS_DIAS = 30

const Amount = (description: string) => Type.Object({ quantidade: Type.Integer({ minimum: 0 }), valor_centavos: Centavos }, { description })

export const PainelCobrancaOut = Type.Object({
  hoje: Day,
  a_registrar: Amount('Charges waiting for their bank: in the next remessa, or for the bank\'s API.'),
  registradas: Amount('Charges the bank holds, open.'),
  vencidas: Amount('Registered charges past their due date (before today, Brasília\'s day).'),
  liquidadas_hoje: Amount('Payments the bank reported and the service applied today (Brasília\'s day): the charges paid, and what came in '
    + '(what was paid, which a payment in part or above the charge makes differ from the charges\' value).'),
  instrucoes_em_andamento: Type.Integer({ minimum: 0, description: 'Instructions asked and not yet answered by the bank (pendente or enviada).' }),
  retornos_aplicando: Type.Integer({ minimum: 0, description: 'Retorno files still being applied.' }),
  linhas_ignoradas: Type.Integer({ minimum: 0,
    description: `Lines of the retornos of the last ${PAINEL_IGNORADAS_DIAS} days left ignored, with why, for a person to look at.` }),
  valores_a_identificar_centavos: Centavos,
}, { description: 'The collections\' numbers of the day, computed by the database.' })
export type PainelCobranca = Static<typeof PainelCobrancaOut>

export const PAINEL_COBRANCA_ROUTE = {
  method: 'GET', url: '/api/cobrancas/painel', escopo: 'cobranca',
  schema: {
    hide: true, tags: ['cobranca'], operationId: 'lerPainelCobranca',
    summary: 'The collections\' numbers of the day: charges by state, overdue, paid today, instructions, retornos, money to identify',
    response: { 200: PainelCobrancaOut, ...guardRefusals('cobranca') },
  },
} as const satisfies RouteDefinition

export function painelCobrancaRoute(deps: { db: Database, clock: Clock, budget: Budget }) {
  return async function (app: FastifyInstance) {
    const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: PAINEL_COBRANCA_ROUTE.escopo } }
    app.get(PAINEL_COBRANCA_ROUTE.url, { config, schema: PAINEL_COBRANCA_ROUTE.schema }, async (request) =>
      withTenant(deps.db, request.credential!.clienteId, (tx) => readPainelCobranca(tx, deps.clock.now())))
  }
}

type Counted = { quantidade: number | string, valor_centavos: string }

/** The numbers as of `now`, in the customer's transaction (row security keeps them to its rows). */
export async function readPainelCobranca(tx: Orm, now: Date): Promise<PainelCobranca> {
  const hoje = brasiliaDay(now)
  const desde = addDays(hoje, -PAINEL_IGNORADAS_DIAS)
  // Sums travel as text: a JSON number would lose centavos past 2^53.
  const [row] = await queryRows<{ p: Record<string, unknown> }>(tx, sql`SELECT json_build_object(
    'a_registrar', json_build_object('quantidade', count(*) FILTER (WHERE estado = 'a_registrar'),
      'valor_centavos', coalesce(sum(valor_centavos) FILTER (WHERE estado = 'a_registrar'), 0)::text),
    'registradas', json_build_object('quantidade', count(*) FILTER (WHERE estado = 'registrada'),
      'valor_centavos', coalesce(sum(valor_centavos) FILTER (WHERE estado = 'registrada'), 0)::text),
    'vencidas', json_build_object('quantidade', count(*) FILTER (WHERE estado = 'registrada' AND vencimento < ${hoje}::date),
      'valor_centavos', coalesce(sum(valor_centavos) FILTER (WHERE estado = 'registrada' AND vencimento < ${hoje}::date), 0)::text),
    -- Read through the retornos received since yesterday (their lines by the primary key), not every line ever applied:
    -- a file's lines are applied on its arrival, or by the next run of the retornos job.
    'liquidadas_hoje', (SELECT json_build_object('quantidade', count(DISTINCT l.cobranca_id), 'valor_centavos', coalesce(sum(l.pago_centavos), 0)::text)
      FROM retornos r JOIN retorno_linhas l ON l.cliente_id = r.cliente_id AND l.retorno_id = r.id
      WHERE (r.criado_em AT TIME ZONE 'America/Sao_Paulo')::date >= ${addDays(hoje, -1)}::date
        AND l.resultado = 'aplicada' AND l.estornada_em IS NULL AND l.ocorrencia IN ('liquidacao', 'liquidacao_apos_baixa', 'liquidacao_cheque_pendente')
        AND (l.aplicada_em AT TIME ZONE 'America/Sao_Paulo')::date = ${hoje}::date),
    'instrucoes_em_andamento', (SELECT count(*) FROM cobranca_instrucoes WHERE estado IN ('pendente', 'enviada')),
    'retornos_aplicando', (SELECT count(*) FROM retornos WHERE estado = 'aplicando'),
    'linhas_ignoradas', (SELECT count(*) FROM retornos r JOIN retorno_linhas l ON l.cliente_id = r.cliente_id AND l.retorno_id = r.id
      WHERE (r.criado_em AT TIME ZONE 'America/Sao_Paulo')::date >= ${desde}::date AND l.resultado = 'ignorada'),
    'valores_a_identificar_centavos', (SELECT coalesce(sum(credito_centavos - debito_centavos), 0) FROM lancamento_linhas
      WHERE conta = 'valores_a_identificar')::text
  ) AS p FROM cobrancas`)
  const p = row!.p
  const counted = (c: unknown) => ({ quantidade: Number((c as Counted).quantidade), valor_centavos: Number((c as Counted).valor_centavos) })
  return {
    hoje, a_registrar: counted(p.a_registrar), registradas: counted(p.registradas), vencidas: counted(p.vencidas),
    liquidadas_hoje: counted(p.liquidadas_hoje), instrucoes_em_andamento: Number(p.instrucoes_em_andamento),
    retornos_aplicando: Number(p.retornos_aplicando), linhas_ignoradas: Number(p.linhas_ignoradas),
    valores_a_identificar_centavos: Number(p.valores_a_identificar_centavos),
  }
}

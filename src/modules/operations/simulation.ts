// POST /api/simulacoes (produto.md §2.5): the same pricing as a quote, on títulos and terms given inline (or a
// product's latest version), for any date (a past one prices with the rules then in force). Nothing is stored:
// a role that only reads operations may simulate, and so may an agent over MCP.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database, Orm } from '../../platform/db/database.ts'
import { Day, guardRefusals } from '../../platform/http/api-schemas.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { ValidationProblem } from '../../platform/http/schemas.ts'
import type { ValidationItem } from '../../platform/http/validation-errors.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { addDays, dayNumber, ufOfMunicipio } from '../calendar/index.ts'
import { getProduct, TermsIn, TIPOS_TITULO, type PerfilIof, type Terms } from '../pricing/index.ts'
import { fail, MAX_PRAZO_DIAS } from './checks.ts'
import { priceTitles, pricingBody, type TitleToQuote } from './pricing-request.ts'
import { PricingOut, TITULOS_POR_PEDIDO } from './schemas.ts'


const { motivo_isencao: _reason, ...inlineTerms } = TermsIn

export const SimulacaoIn = Type.Object({
  data_operacao: Type.Optional(Day),
  perfil_iof: Type.String({ enum: ['pj', 'pj_simples', 'pf', 'isento'], description: 'The cedente\'s IOF profile.' }),
  produto_id: Type.Optional(Type.String({ format: 'uuid', description: 'A product whose latest version prices it; or give the terms inline.' })),
  ...Type.Partial(Type.Object(inlineTerms)).properties,
  titulos: Type.Array(Type.Object({
    tipo: Type.String({ enum: [...TIPOS_TITULO] }),
    vencimento: Day,
    valor_face_centavos: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    municipio_ibge: Type.Optional(Type.String({ pattern: '^[0-9]{7}$', description: 'The sacado\'s municipality: its holidays and its state\'s apply.' })),
    uf: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  }, { additionalProperties: false }), { minItems: 1, maxItems: TITULOS_POR_PEDIDO }),
}, { additionalProperties: false })
export type SimulacaoInT = Static<typeof SimulacaoIn>

export const SIMULATION_ROUTE = {
  method: 'POST', url: '/api/simulacoes', escopo: 'operacoes', somenteLeitura: true,
  schema: {
    hide: true, tags: ['operacoes'], operationId: 'simular', summary: 'Prices títulos exactly as a quote would, storing nothing',
    body: SimulacaoIn,
    response: {
      200: Type.Object({ produto: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), versao: Type.Integer() }), Type.Null()]), ...PricingOut }),
      ...guardRefusals('operacoes'),
      422: ValidationProblem('Terms both by product and inline, or missing; a due date not after the date; no IOF rate for the date '
        + '(iof_sem_aliquota); a título priced to nothing or a net amount not positive, as a quote would be (cotacao_inviavel, with '
        + '`motivo` and, for a line, its `indice`).', ['iof_sem_aliquota', 'cotacao_inviavel']),
    },
  },
} as const satisfies RouteDefinition

const TERM_FIELDS = ['base', 'taxa_mensal', 'taxa_ad_valorem', 'tarifa_por_titulo_centavos', 'tac_centavos', 'iof'] as const

export function simulationRoute(deps: { db: Database, clock: Clock, budget: Budget }) {
  return async function (app: FastifyInstance) {
    const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: SIMULATION_ROUTE.escopo, somenteLeitura: SIMULATION_ROUTE.somenteLeitura } }
    app.post(SIMULATION_ROUTE.url, { config, schema: SIMULATION_ROUTE.schema, bodyLimit: 1024 * 1024 }, async (request) => {
      const b = (request as FastifyRequest<{ Body: SimulacaoInT }>).body
      return withTenant(deps.db, request.credential!.clienteId, (tx) => simulate(tx, b, deps.clock.now()))
    })
  }
}

/** The priced títulos (the route's and the MCP tool's answer), every rule checked first. */
export async function simulate(tx: Orm, b: SimulacaoInT, now: Date) {
  const dataOperacao = b.data_operacao ?? brasiliaDay(now)
  fail(checkSimulation(b, dataOperacao))
  const { terms, produto } = await termsOf(tx, b)
  const list: TitleToQuote[] = b.titulos.map((t) => ({
    tipo: t.tipo as TitleToQuote['tipo'], vencimento: t.vencimento, valorFaceCentavos: BigInt(t.valor_face_centavos),
    place: { municipioIbge: t.municipio_ibge ?? null, uf: t.uf ?? null },
  }))
  // Refused as a quote is: a simulation is what sales and agents quote from, and a negative price is no answer.
  const pricing = await priceTitles(tx, { dataOperacao, perfilIof: b.perfil_iof as PerfilIof, terms, list, viable: true })
  return { produto, ...pricingBody(pricing, list, dataOperacao) }
}

function checkSimulation(b: SimulacaoInT, dataOperacao: string): ValidationItem[] {
  const items: ValidationItem[] = []
  const item = (loc: (string | number)[], msg: string, input: unknown, type = 'value_error') => items.push({ type, loc: ['body', ...loc],
    msg: `Value error, ${msg}`, input })
  if (dayNumber(dataOperacao) === undefined) item(['data_operacao'], 'no such day', dataOperacao)
  const given = TERM_FIELDS.filter((f) => b[f] !== undefined)
  if (b.produto_id !== undefined && given.length) item([given[0]!], 'give a produto_id or the terms inline, not both', b[given[0]!])
  if (b.produto_id === undefined) for (const f of TERM_FIELDS) if (b[f] === undefined) item([f], 'missing: give a produto_id or every term', null, 'missing')
  b.titulos.forEach((t, i) => {
    if (dayNumber(t.vencimento) === undefined) item(['titulos', i, 'vencimento'], 'no such day', t.vencimento)
    else if (dayNumber(dataOperacao) !== undefined && t.vencimento <= dataOperacao) item(['titulos', i, 'vencimento'],
      'due after the operation\'s date', t.vencimento)
    else if (dayNumber(dataOperacao) !== undefined && t.vencimento > addDays(dataOperacao, MAX_PRAZO_DIAS)) {
      item(['titulos', i, 'vencimento'], `due at most ${MAX_PRAZO_DIAS} days after the operation's date`, t.vencimento)
    }
    if (t.municipio_ibge !== undefined && ufOfMunicipio(t.municipio_ibge) === undefined) item(['titulos', i, 'municipio_ibge'],
      'no state has this IBGE code', t.municipio_ibge)
  })
  const face = b.titulos.reduce((s, t) => s + BigInt(t.valor_face_centavos), 0n)
  if (face > BigInt(Number.MAX_SAFE_INTEGER)) item(['titulos'], 'the total face value passes 2^53 − 1 centavos', null)
  return items
}

async function termsOf(tx: Orm, b: SimulacaoInT): Promise<{ terms: Terms, produto: { id: string, versao: number } | null }> {
  if (b.produto_id !== undefined) {
    const product = await getProduct(tx, b.produto_id.toLowerCase(), 'latest')
    if (!product) fail([{ type: 'value_error', loc: ['body', 'produto_id'],
      msg: 'Value error, no product of the customer\'s has this id', input: b.produto_id }])
    return { terms: product!.versoes[0]!, produto: { id: product!.id, versao: product!.versoes[0]!.versao } }
  }
  const given = (b.dias_float ?? {}) as Record<string, number | undefined>
  return {
    produto: null,
    terms: {
      base: b.base as Terms['base'], taxaMensal: b.taxa_mensal!, taxaAdValorem: b.taxa_ad_valorem!,
      tarifaPorTituloCentavos: BigInt(b.tarifa_por_titulo_centavos!), tacCentavos: BigInt(b.tac_centavos!),
      diasFloat: Object.fromEntries(TIPOS_TITULO.map((t) => [t, given[t] ?? 0])), iof: b.iof as Terms['iof'],
    },
  }
}


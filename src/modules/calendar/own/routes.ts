// /api/feriados (produto.md §2.3): the holidays that apply between two days (the national ones, computed, and the
// customer's own for a place), and the customer's own added and removed; scope `cadastro`.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { Day, guardRefusals } from '../../../platform/http/api-schemas.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { nationalHolidaysBetween } from '../business-days.ts'
import { dayNumber, daysBetween } from '../civil-date.ts'
import { ufOfMunicipio } from './places.ts'
import { addHoliday, ownHolidays, removeHoliday, type OwnHoliday } from './store.ts'

/** The longest range one list answers, in days (ten years). */
export const MAX_RANGE_DAYS = 3660

const Municipio = Type.String({ pattern: '^[0-9]{7}$', description: 'A 7-digit IBGE code.' })
const Uf = Type.String({ enum: ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI',
  'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'] })
const Holiday = Type.Object({
  id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The customer\'s own holiday\'s id; null for a national one.' }),
  data: Type.String({ format: 'date' }),
  descricao: Type.String(),
  abrangencia: Type.String({ enum: ['nacional', 'estadual', 'municipal'] }),
  uf: Type.Union([Type.String(), Type.Null()]),
  municipio_ibge: Type.Union([Type.String(), Type.Null()]),
})
const refusals = guardRefusals('cadastro')
const FIRST_DAY = '2000-01-01'
const LAST_DAY = '2199-12-31'
const invalid = { 422: ValidationProblem('A day that does not exist, a range backwards or over ten years, both places or neither: every item.') }

export const HOLIDAY_ROUTES = {
  listar: {
    method: 'GET', url: '/api/feriados', escopo: 'cadastro',
    schema: {
      hide: true, operationId: 'listarFeriados', tags: ['feriados'], summary: 'The holidays that apply between two days, both included',
      description: 'National bank holidays (computed) and the customer\'s own: with `municipio_ibge`, those of that municipality and its state.',
      querystring: Type.Object({ de: Day, ate: Day, municipio_ibge: Type.Optional(Municipio) }, { additionalProperties: false }),
      response: { 200: Type.Object({ itens: Type.Array(Holiday) }), ...refusals, ...invalid },
    },
  },
  criar: {
    method: 'POST', url: '/api/feriados', escopo: 'cadastro',
    schema: {
      hide: true, operationId: 'criarFeriado', tags: ['feriados'], summary: 'A holiday of the customer\'s, for a municipality or a state',
      headers: IdempotencyKeyHeader,
      body: Type.Object({
        data: Day, descricao: Type.String({ minLength: 2, maxLength: 200 }), municipio_ibge: Type.Optional(Municipio), uf: Type.Optional(Uf),
      }, { additionalProperties: false }),
      response: {
        201: Holiday, ...refusals, ...invalid, ...idempotencyProblems,
        409: Type.Object({ detail: Type.String(), id: Type.Optional(Type.String({ format: 'uuid' })) },
          { description: 'The customer has this holiday for this place (feriado_existente, with its `id`), or the Idempotency-Key is in use.' }),
      },
    },
  },
  remover: {
    method: 'DELETE', url: '/api/feriados/:id', escopo: 'cadastro',
    schema: {
      hide: true, operationId: 'removerFeriado', tags: ['feriados'], summary: 'Removes a holiday of the customer\'s', headers: IdempotencyKeyHeader,
      params: Type.Object({ id: Type.String() }),
      response: { 204: Type.Null({ description: 'Removed.' }), ...refusals, 404: Problem('No holiday of the customer\'s has this id.', 'nao_encontrado'),
        ...idempotencyProblems },
    },
  },
} as const satisfies Record<string, RouteDefinition>

type Deps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

export function holidayRoutes(deps: Deps) {
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'cadastro' } }
  const mutation = { idempotency: deps.idempotency, clock: deps.clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { listar, criar, remover } = HOLIDAY_ROUTES

  return async function (app: FastifyInstance) {
    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const req = request as FastifyRequest<{ Querystring: { de: string, ate: string, municipio_ibge?: string } }>
      const { de, ate, municipio_ibge: municipio } = req.query
      checkRange(de, ate, municipio)
      const own = await withTenant(deps.db, req.credential!.clienteId, (tx) => ownHolidays(tx, { de, ate }, municipio))
      const national = nationalHolidaysBetween(de, ate).map((h) => ({ id: null, ...h, abrangencia: 'nacional', uf: null, municipio_ibge: null }))
      return { itens: [...national, ...own.map(holidayView)].sort((a, b) => a.data.localeCompare(b.data)) }
    })

    mutationRoute<{ Body: { data: string, descricao: string, municipio_ibge?: string, uf?: string } }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'accepted', config, schema: criar.schema, caller: byCredential, timeoutFactor: 6,
      work: async ({ tx, req, action }) => {
        const b = req.body
        const items = []
        if (dayNumber(b.data) === undefined) items.push({ type: 'value_error', loc: ['body', 'data'], msg: 'Value error, no such day', input: b.data })
        // The table's own range (migration 0017): said here as the field's item, not as the database's bare refusal.
        else if (b.data < FIRST_DAY || b.data > LAST_DAY) {
          items.push({ type: 'value_error', loc: ['body', 'data'], msg: `Value error, a day from ${FIRST_DAY} to ${LAST_DAY}`, input: b.data })
        }
        if ((b.municipio_ibge === undefined) === (b.uf === undefined)) {
          items.push({ type: 'value_error', loc: ['body'], msg: 'Value error, give municipio_ibge or uf, one of them', input: b })
        } else if (b.municipio_ibge !== undefined && ufOfMunicipio(b.municipio_ibge) === undefined) {
          items.push({ type: 'value_error', loc: ['body', 'municipio_ibge'], msg: 'Value error, no state has this IBGE code', input: b.municipio_ibge })
        }
        if (items.length) throw new RequestValidationError(items)
        const made = await addHoliday(tx, {
          clienteId: req.credential!.clienteId, data: b.data, descricao: b.descricao.trim(), municipioIbge: b.municipio_ibge ?? null, uf: b.uf ?? null,
        }, action.now)
        return { answer: jsonAnswer(201, holidayView(made)), audit: { acao: 'feriado.criado', alvoId: made.id } }
      },
    })

    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: remover.method, url: remover.url, idempotency: 'accepted', config, schema: remover.schema, caller: byCredential, timeoutFactor: 4,
      work: async ({ tx, req }) => {
        const id = req.params.id
        if (!isUuid(id) || !await removeHoliday(tx, id)) return { answer: problemAnswer(problem('nao_encontrado')) }
        return { answer: jsonAnswer(204, null), audit: { acao: 'feriado.removido', alvoId: id } }
      },
    })
  }
}

function checkRange(de: string, ate: string, municipio: string | undefined): void {
  const items = []
  for (const [name, value] of [['de', de], ['ate', ate]] as const) {
    if (dayNumber(value) === undefined) items.push({ type: 'value_error', loc: ['querystring', name], msg: 'Value error, no such day', input: value })
  }
  if (!items.length && (daysBetween(de, ate) < 0 || daysBetween(de, ate) > MAX_RANGE_DAYS)) {
    const msg = `Value error, ate must be on or after de, at most ${MAX_RANGE_DAYS} days later`
    items.push({ type: 'value_error', loc: ['querystring', 'ate'], msg, input: ate })
  }
  if (municipio !== undefined && ufOfMunicipio(municipio) === undefined) {
    items.push({ type: 'value_error', loc: ['querystring', 'municipio_ibge'], msg: 'Value error, no state has this IBGE code', input: municipio })
  }
  if (items.length) throw new RequestValidationError(items)
}

function holidayView(h: OwnHoliday) {
  return {
    id: h.id, data: h.data, descricao: h.descricao, abrangencia: h.municipioIbge ? 'municipal' : 'estadual',
    uf: h.uf ?? (h.municipioIbge ? ufOfMunicipio(h.municipioIbge)! : null), municipio_ibge: h.municipioIbge,
  }
}

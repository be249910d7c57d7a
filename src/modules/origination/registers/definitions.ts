// The registers' routes as data: method, path, scope and the schemas that validate, serialize and document them
// (the customers' document is made from these: src/platform/http/route-document.ts).
import { Type } from 'typebox'
import { guardRefusals } from '../../../platform/http/api-schemas.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import {
  CedenteIn, CedenteOut, CedentePatch, CedentesOut, ContaBancariaOut, ContaParams, PartyParams, PartyQuery, SacadoIn, SacadoOut, SacadoPatch,
  SacadosOut,
} from './schemas.ts'
import type { Kind } from './store.ts'

const refusals = guardRefusals('cadastro')
const notFound = { 404: Problem('No register of this kind of your customer has this id (another customer\'s included).', 'nao_encontrado') }
const invalid = {
  422: ValidationProblem('The body or the query breaks the schema, or a rule (a document\'s check digits, a name with control characters, '
    + 'an IOF profile that does not fit the documento, an IOF exemption without its reason, a pj_simples without its Simples Nacional '
    + 'declaration or one dated after today, a bank account held by someone else): every item.'),
}

type Shapes = { In: object, Patch: object, Out: object, List: object, path: string, what: string, plural: string }
const SHAPES: Record<Kind, Shapes> = {
  cedente: { In: CedenteIn, Patch: CedentePatch, Out: CedenteOut, List: CedentesOut, path: '/api/cedentes', what: 'cedente', plural: 'cedentes' },
  sacado: { In: SacadoIn, Patch: SacadoPatch, Out: SacadoOut, List: SacadosOut, path: '/api/sacados', what: 'sacado', plural: 'sacados' },
}

const title = (s: string) => s[0]!.toUpperCase() + s.slice(1)

export function partyRoutes(kind: Kind) {
  const s = SHAPES[kind]
  const Name = title(s.what)
  return {
    criar: {
      method: 'POST', url: s.path, escopo: 'cadastro',
      schema: {
        hide: true, operationId: `criar${Name}`, tags: [s.plural], summary: `Register a ${s.what}`, headers: IdempotencyKeyHeader, body: s.In,
        response: {
          201: s.Out, ...refusals, ...invalid, ...idempotencyProblems,
          409: Type.Object({
            detail: Type.String({ description: 'Stable error code; clients branch on it, not on prose.', examples: ['documento_em_uso'] }),
            id: Type.Optional(Type.String({ format: 'uuid', description: 'The register that holds the documento or the id_externo.' })),
          }, {
            description: `The customer has a ${s.what} with this documento (documento_em_uso) or this id_externo (id_externo_em_uso), named by `
              + '`id`; or the first request with this Idempotency-Key has not finished (chave_idempotencia_em_uso).',
          }),
        },
      },
    },
    listar: {
      method: 'GET', url: s.path, escopo: 'cadastro',
      schema: {
        hide: true, operationId: `listar${title(s.plural)}`, tags: [s.plural], summary: `The customer's ${s.plural}, newest first, a page at a time`,
        querystring: PartyQuery, response: { 200: s.List, ...refusals, ...invalid },
      },
    },
    ler: {
      method: 'GET', url: `${s.path}/:id`, escopo: 'cadastro',
      schema: {
        hide: true, operationId: `ler${Name}`, tags: [s.plural], summary: `One ${s.what}`, params: PartyParams,
        response: { 200: s.Out, ...refusals, ...notFound },
      },
    },
    alterar: {
      method: 'PATCH', url: `${s.path}/:id`, escopo: 'cadastro',
      schema: {
        hide: true, operationId: `alterar${Name}`, tags: [s.plural], headers: IdempotencyKeyHeader, params: PartyParams, body: s.Patch,
        summary: `Change a ${s.what}: only the fields given (the documento and the id_externo never change); \`estado\` blocks or unblocks it`,
        response: { 200: s.Out, ...refusals, ...notFound, ...invalid, ...idempotencyProblems },
      },
    },
  } as const satisfies Record<string, RouteDefinition>
}

/**
 * A second person confirms a bank account added to a cedente after its registration (issue 31 item 6): only then is
 * it paid to. An approver's act (`aprovacao`), by a person other than the one who added it.
 */
export const ACCOUNT_CONFIRMATION_ROUTE = {
  method: 'POST', url: '/api/cedentes/:id/contas-bancarias/:conta_id/confirmacao', escopo: 'aprovacao',
  schema: {
    hide: true, operationId: 'confirmarContaBancaria', tags: ['cedentes'], headers: IdempotencyKeyHeader, params: ContaParams,
    summary: 'Confirm a bank account added after the cedente\'s registration, so that payments may go to it (a second person)',
    response: {
      200: ContaBancariaOut, ...guardRefusals('aprovacao'), ...idempotencyProblems,
      403: Problem('The person who added the account, or a token with no person (aprovacao_pelo_mesmo_usuario); or the role or scope '
        + 'lacks `aprovacao`.', 'aprovacao_pelo_mesmo_usuario'),
      404: Problem('No cedente of your customer has this id, or it has no account with this id.', 'nao_encontrado'),
    },
  },
} as const satisfies RouteDefinition

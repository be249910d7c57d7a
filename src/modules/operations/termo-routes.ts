// The signed assignment term as a file (issue 32 item 4): PUT /api/operacoes/{id}/termo takes the file's bytes as
// the body (whatever its Content-Type: a PDF, a scan), computes its SHA-256 and keeps it; GET answers the same
// bytes to download. The raw body, not multipart: one file and nothing else, the way an integration already holds
// it (`curl --data-binary @termo.pdf`); the back office sends its form's file the same way, in process.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { guardRefusals, NotFound } from '../../platform/http/api-schemas.ts'
import { problem } from '../../platform/http/problem.ts'
import { pathItems, type RouteDefinition } from '../../platform/http/route-document.ts'
import { ValidationProblem } from '../../platform/http/schemas.ts'
import { jsonAnswer, problemAnswer } from '../../platform/idempotency/http.ts'
import { mutationRoute } from '../../platform/idempotency/mutation-route.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../platform/idempotency/schemas.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import { UNSAFE_NAME_CHARACTER } from '../../platform/lib/chosen-name.ts'
import type { ActionContext } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { byCredential } from '../credentials/index.ts'
import { fail } from './checks.ts'
import { InvalidStateError } from './errors.ts'
import type { OperationRoutesDeps } from './routes.ts'
import { getOperationRow, lockOperation } from './store.ts'
import { saveTerm, sha256Hex, termFile, termInfo, termType, termView } from './termo-store.ts'

const Params = Type.Object({ id: Type.String() })
const Instant = Type.String({ format: 'date-time' })
export const TermoOut = Type.Object({
  sha256: Type.String({ description: 'The file\'s SHA-256, hex, computed by the service: what the formalization records as termo_sha256.' }),
  tipo: Type.String({ description: 'The type it is served as: application/pdf, image/png, image/jpeg as sent; anything else application/octet-stream.' }),
  nome_arquivo: Type.Union([Type.String(), Type.Null()]), tamanho_bytes: Type.Integer(), enviado_em: Instant,
})
const NOME = `^[^${UNSAFE_NAME_CHARACTER.source.slice(1, -1)}/\\\\"]{1,200}$`
const op = (summary: string, operationId: string) => ({ hide: true, tags: ['operacoes'], summary, operationId })

export const TERM_ROUTES = {
  enviarTermo: {
    method: 'PUT', url: '/api/operacoes/:id/termo', escopo: 'operacoes',
    schema: {
      ...op('Keeps the signed assignment term (the body is the file); its SHA-256 is computed here', 'enviarTermo'), headers: IdempotencyKeyHeader,
      params: Params, querystring: Type.Object({ nome_arquivo: Type.Optional(Type.String({ pattern: NOME })) }, { additionalProperties: false }),
      response: {
        200: TermoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems,
        409: Type.Object({ detail: Type.String() }, { description: 'The operation is not accepted yet, or cancelled (estado_invalido, with `estado`).',
          additionalProperties: true }),
        413: Type.Object({ detail: Type.String() }, { description: 'Larger than TERMO_MAX_BYTES (corpo_muito_grande).', additionalProperties: true }),
        422: ValidationProblem('An empty body, or, once formalized, a file whose SHA-256 is not the termo_sha256 recorded: every item.'),
      },
    },
  },
  baixarTermo: {
    method: 'GET', url: '/api/operacoes/:id/termo', escopo: 'operacoes',
    schema: {
      ...op('The signed assignment term kept, to download', 'baixarTermo'), params: Params,
      response: {
        200: Type.String({ description: 'The bytes sent, with their type and a Content-Disposition naming the operation.',
          'x-media-types': ['application/pdf', 'image/png', 'image/jpeg', 'application/octet-stream'] }),
        ...guardRefusals('operacoes'), ...NotFound('operation or term'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>

/** The term routes' path items; the PUT's body is the file itself, which a JSON body schema cannot say. */
export function termPathItems(): Record<string, Record<string, unknown>> {
  const paths = pathItems(Object.values(TERM_ROUTES))
  const put = paths['/operacoes/{id}/termo']!.put as Record<string, unknown>
  put.requestBody = { required: true, content: Object.fromEntries(['application/pdf', 'image/png', 'image/jpeg', 'application/octet-stream']
    .map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) }
  return paths
}

/** The body as sent: its bytes kept out of the enumerable fields, so an Idempotency-Key's fingerprint hashes the digest, not megabytes. */
export class TermBody {
  readonly sha256: string
  readonly tamanho: number
  readonly #bytes: Buffer
  constructor(bytes: Buffer) {
    this.#bytes = bytes
    this.sha256 = sha256Hex(bytes)
    this.tamanho = bytes.length
  }

  get bytes(): Buffer { return this.#bytes }
}

const NOT_FOUND = problem('nao_encontrado')
const FORMALIZED = new Set(['formalizada', 'em_desembolso', 'desembolsada'])

export function termRoutes(deps: OperationRoutesDeps & { termoMaxBytes: number }) {
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'operacoes' } }
  const R = TERM_ROUTES
  return async function (app: FastifyInstance) {
    // Its own context: only here is a body bytes (any type), bounded by TERMO_MAX_BYTES (413 corpo_muito_grande past it).
    await app.register(async (scoped) => {
      scoped.removeAllContentTypeParsers()
      scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.termoMaxBytes }, (_req, body, done) => done(null, new TermBody(body as Buffer)))
      mutationRoute<{ Params: { id: string }, Querystring: { nome_arquivo?: string }, Body: TermBody | undefined }, ActionContext>(scoped, {
        idempotency: deps.idempotency, clock: deps.clock, dbTimeoutMs: deps.dbTimeoutMs,
      }, {
        method: 'PUT', url: R.enviarTermo.url, idempotency: 'accepted', config, schema: R.enviarTermo.schema,
        bodyLimit: deps.termoMaxBytes, caller: byCredential, timeoutFactor: 8,
        work: async ({ tx, req, action }) => {
          const id = req.params.id
          const found = isUuid(id) ? await lockOperation(tx, id) : undefined
          if (!found) return { answer: problemAnswer(NOT_FOUND) }
          const body = req.body instanceof TermBody && req.body.tamanho > 0 ? req.body : undefined
          if (!body) fail([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }])
          if (FORMALIZED.has(found.estado)) {
            if (body!.sha256 !== found.termoSha256) {
              fail([{ type: 'value_error', loc: ['body'], msg: 'Value error, not the formalized term: its SHA-256 is not termo_sha256', input: body!.sha256 }])
            }
            // The formalized term's file, kept already: it stays as it was sent (its name, type and when), whatever this copy says.
            const formalized = await termInfo(tx, found.id)
            if (formalized) return { answer: jsonAnswer(200, termView(formalized)) }
          } else if (found.estado !== 'aceita') {
            throw new InvalidStateError(found.estado)
          }
          const kept = await saveTerm(tx, {
            clienteId: found.clienteId, operacaoId: found.id, tipo: termType(req.headers['content-type']), nomeArquivo: req.query.nome_arquivo ?? null,
            bytes: body!.bytes, sha256: body!.sha256,
          }, action.now)
          return { answer: jsonAnswer(200, termView(kept)), audit: { acao: 'operacao.termo_enviado', alvoId: found.id } }
        },
      })
    })

    app.get(R.baixarTermo.url, { config, schema: R.baixarTermo.schema }, async (request, reply) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(deps.db, request.credential!.clienteId, async (tx) => {
        const row = await getOperationRow(tx, id)
        return row && { numero: row.numero, term: await termFile(tx, id) }
      }) : undefined
      if (!found?.term) throw NOT_FOUND
      const t = found.term
      const ext = { 'application/pdf': '.pdf', 'image/png': '.png', 'image/jpeg': '.jpg' }[t.tipo] ?? ''
      return reply.type(t.tipo)
        .header('content-disposition', `attachment; filename="termo-operacao-${found.numero}${ext}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .header('x-termo-sha256', t.sha256)
        .send(t.conteudo)
    })
  }
}

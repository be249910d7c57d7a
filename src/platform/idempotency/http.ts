// Idempotency-Key for HTTP routes: a route declares `config.idempotency` ('required' or 'accepted'), this plugin
// checks the header before the body is validated (400s), and the route (declared with mutationRoute,
// mutation-route.ts) runs its work through `run` with callOf's call, and sends what it answered with sendOutcome.
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { problem, type HttpProblem } from '../http/problem.ts'
import { requestFingerprint } from './fingerprint.ts'
import { parseIdempotencyKey } from './key.ts'
import type { KeyedCall, RunOutcome, UnkeyedCall } from './run.ts'
import type { StoredAnswer } from './store.ts'

export type IdempotencyMode = 'required' | 'accepted'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an Idempotency-Key header: it must come (`required`) or may (`accepted`). */
    idempotency?: IdempotencyMode
  }
}

/** A retry after this many seconds finds the first request finished (they run for well under a second). */
export const IN_USE_RETRY_AFTER_SECONDS = 1

const KEY = Symbol('idempotency key')
type Keyed = FastifyRequest & { [KEY]?: string }

/** Registered before the routes, so it sees each one as it is added. */
export const idempotencyKeys = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const mode = route.config?.idempotency
    if (!mode) return
    const check: preValidationHookHandler = (req, _reply, done) => {
      const parsed = parseIdempotencyKey(req.headers['idempotency-key'])
      if (parsed.kind === 'invalid') return done(problem('chave_idempotencia_invalida'))
      if (parsed.kind === 'key') (req as Keyed)[KEY] = parsed.key
      else if (mode === 'required') return done(problem('chave_idempotencia_ausente'))
      done()
    }
    route.preValidation = [check, ...[route.preValidation ?? []].flat()]
  })
}, { name: 'idempotency-keys' })

/** The request's key, checked by the plugin; undefined when the route takes none or none was sent. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  return (req as Keyed)[KEY]
}

/** A body the work has already serialized as JSON (it wrote the same text to the database): sent as it is. */
export class JsonText {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** A JSON answer as stored; a 204 has neither body nor content type. */
export function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): StoredAnswer {
  if (status === 204) return { status, headers: { ...headers }, body: '' }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: text }
}

export function problemAnswer(p: HttpProblem): StoredAnswer {
  return jsonAnswer(p.statusCode, p.body, p.headers)
}

export function sendAnswer(reply: FastifyReply, answer: StoredAnswer, replayed = false): FastifyReply {
  const headers: Record<string, string> = replayed ? { ...answer.headers, 'idempotent-replayed': 'true' } : { ...answer.headers }
  return reply.code(answer.status).headers(headers).send(answer.body === '' ? null : answer.body)
}

/** The call `run` takes for this request: keyed by its Idempotency-Key and fingerprint when it sent one. */
export async function callOf(
  req: FastifyRequest, scope: { clienteId: string | null, escopo: () => string | Promise<string> },
): Promise<KeyedCall | UnkeyedCall> {
  const key = idempotencyKeyOf(req)
  if (key === undefined) return { clienteId: scope.clienteId }
  return { scope: { escopo: await scope.escopo(), clienteId: scope.clienteId }, key, fingerprint: requestFingerprint(req.method, req.url, req.body) }
}

/** Sends what a run answered: the fresh answer, the stored one (Idempotent-Replayed: true), a 409 or a 422. */
export function sendOutcome(reply: FastifyReply, outcome: RunOutcome<StoredAnswer>): FastifyReply {
  if (outcome.kind === 'fresh') return sendAnswer(reply, outcome.result)
  if (outcome.kind === 'replayed') return sendAnswer(reply, outcome.answer, true)
  // Sent as they are, not thrown: a route's 422 schema is its validation list, which this 422 is not.
  return sendAnswer(reply, problemAnswer(outcome.kind === 'in_use' ? IN_USE : REUSED))
}

const IN_USE = problem('chave_idempotencia_em_uso', { 'retry-after': String(IN_USE_RETRY_AFTER_SECONDS) })
const REUSED = problem('chave_idempotencia_reutilizada')

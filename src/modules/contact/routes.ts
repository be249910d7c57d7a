// The contact form's API: subjects, channel state, and the form itself.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from '../../platform/config.ts'
import type { Database } from '../../platform/db/database.ts'
import { problem } from '../../platform/http/problem.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { HTTPValidationError, Problem, rateLimited } from '../../platform/http/schemas.ts'
import { ref } from '../../platform/http/schema-ref.ts'
import { serializeOnce } from '../../platform/http/serialize-once.ts'
import type { MailChannel } from '../../platform/outbox/channel.ts'
import { channelState } from '../../platform/outbox/channel-state.ts'
import { singleFlight } from '../../platform/lib/single-flight.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { CHANNEL_STATE_API_PATH, CONTACT_API_PATH, SUBJECTS_API_PATH } from './paths.ts'
import { AssuntosOut, ContatoIn, ContatoOut, EstadoOut, type ContatoInT } from './schemas.ts'
import type { ContactService } from './service.ts'
import { CONTACT_TIMEOUT_FACTOR, ContactNotStored, contactWork, RETRY_AFTER_SECONDS } from './submit.ts'
import { mutationRoute } from '../../platform/idempotency/mutation-route.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../platform/idempotency/schemas.ts'
import type { Idempotency } from '../../platform/idempotency/run.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'

export type ContactRoutesDeps = {
  config: Pick<Config, 'rateLimits' | 'dbTimeoutMs'>
  db: Database
  contact: ContactService
  channel: MailChannel
  clock: Clock
  idempotency: Idempotency
}

const UNAVAILABLE = () => problem('servico_indisponivel', { 'retry-after': String(RETRY_AFTER_SECONDS) })

export function contactRoutes(deps: ContactRoutesDeps) {
  const { config, db, contact, channel, clock, idempotency } = deps
  const tags = ['contato']
  // One computation a second however many ask: the endpoint is public and counts the queue.
  const estado = singleFlight(() => channelState(channel, db, clock.now(), config.dbTimeoutMs), 1000)
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    mutationRoute<{ Body: ContatoInT }, undefined>(fastify, { idempotency, clock, dbTimeoutMs: config.dbTimeoutMs }, {
      method: 'POST', url: CONTACT_API_PATH, idempotency: 'accepted',
      config: { rateLimit: rateLimitFor(config.rateLimits.contato) },
      schema: {
        operationId: 'enviarContato', tags, summary: 'Send the contact form',
        description: 'Stores the message and forwards it by e-mail to the mailbox of its subject. 202: accepted; delivery is confirmed asynchronously. '
          + 'The same payload sent again within minutes answers the first protocolo. With an `Idempotency-Key`, the same request with the same '
          + 'key answers the first answer for 24 hours (`Idempotent-Replayed: true`); the key with another body is refused with 422 '
          + '`chave_idempotencia_reutilizada`.',
        headers: IdempotencyKeyHeader,
        body: ref(ContatoIn),
        response: {
          202: ref(ContatoOut),
          ...idempotencyProblems,
          422: ref(HTTPValidationError),
          ...rateLimited,
          503: Problem('The message could not be stored; nothing was accepted. Retry after Retry-After seconds.', 'servico_indisponivel'),
        },
      },
      // An anonymous caller: no customer's transaction, no audit row of a customer's; with a key, the key is the
      // client's (hashed) address's.
      caller: {
        clienteId: () => null,
        escopo: async (req) => `ip:${await withTimeout(contact.ipHash(req.ip), config.dbTimeoutMs)}`,
        action: () => undefined,
      },
      // What screening reads from the database is read first, outside the transaction.
      prepare: () => contact.prepareForm(),
      timeoutFactor: CONTACT_TIMEOUT_FACTOR,
      // The site's script adds the honeypot and the form token; a client of the contract sends neither. (`expired`
      // is the site form's alone: the API delivers an old token's contact, see src/modules/contact/spam/rules.ts.)
      work: ({ tx, req }) => contactWork(contact, req, { value: req.body, posted: req.body, via: 'api' }, config.dbTimeoutMs)(tx),
      failed: (err, req) => {
        if (!(err instanceof ContactNotStored)) req.log.error(errorFacts(err), 'contact could not be stored')
        return UNAVAILABLE()
      },
    })

    // The public reads: the reading budget, and 200 or 429.
    const read = <S extends TSchema>(operationId: string, summary: string, description: string, out: S) => ({
      config: { rateLimit: rateLimitFor(config.rateLimits.leitura) },
      schema: { operationId, tags, summary, description, response: { 200: out, ...rateLimited } },
    })
    // The subjects come from the configuration: one answer for the process's life, serialized once.
    const assuntos = { assuntos: contact.subjects.list().map((s) => ({ codigo: s.codigo, rotulo: s.rotulo, destino: s.email })) }
    const sendAssuntos = serializeOnce()
    app.get<{ Reply: string }>(SUBJECTS_API_PATH, read('listarAssuntos', 'Contact subjects',
      'The subjects the form accepts, so a client builds its selector without duplicating the list. An unknown subject is not refused: it falls to `geral`.',
      AssuntosOut), async (_req, reply) => sendAssuntos(reply, assuntos))

    app.get(CHANNEL_STATE_API_PATH, read('estadoCanal', 'Contact channel state',
      'Whether this environment can really send e-mail or is in sandbox mode, and the delivery queue. Never a credential, host or provider address.',
      EstadoOut), async (_req, reply) => {
      reply.header('cache-control', 'no-store')
      return estado()
    })
  }
}

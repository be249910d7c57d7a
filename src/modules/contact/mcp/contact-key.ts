// enviar_contato's idempotency key. An agent that did not see the answer (a lost connection, a timeout) calls the
// tool again: a new JSON-RPC request with a new id, so the id cannot be the key. The agent may pass its own key
// (`chave_idempotencia`, kept across its retries, as an HTTP client keeps its Idempotency-Key); without one, the
// key is the message itself: the same message from the same credential within IDEMPOTENCY_KEY_TTL_HOURS is one
// message. Either way the key's scope is the credential (send-contact.ts), so no two credentials ever share one.
import { createHash } from 'node:crypto'
import { canonicalJson } from '../../../platform/idempotency/canonical-json.ts'
import { MAX_KEY_LENGTH, VISIBLE_ASCII } from '../../../platform/idempotency/key.ts'

/** The argument an agent may add to enviar_contato's, as the tool's input schema declares it. */
export const AGENT_KEY_ARGUMENT = {
  type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: VISIBLE_ASCII.source,
  description: 'Opcional: uma chave sua (1 a 255 caracteres ASCII visíveis), a mesma em cada nova tentativa desta mensagem; '
    + 'como o cabeçalho Idempotency-Key. Sem ela, a mesma mensagem repetida pela mesma credencial é uma só.',
} as const

/** The agent's key (checked with isPlainKey), or the message's own when the agent sent none. */
export function contactKey(given: string | undefined, message: unknown): string {
  if (given !== undefined) return `agente:${given}`
  return `mensagem:${createHash('sha256').update(canonicalJson(message)).digest('base64url')}`
}

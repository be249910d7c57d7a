// The contact module's MCP tools: the subjects, and the form itself, as GET /api/site/assuntos and
// POST /api/site/contato answer them (the same checks, the same 422 items, the same budget per credential).
import type { KeyedLimit } from '../../../platform/http/rate-limit.ts'
import { isPlainKey } from '../../../platform/idempotency/key.ts'
import { IN_USE_RETRY_AFTER_SECONDS } from '../../../platform/idempotency/http.ts'
import { ok, publicTwin, toolSchema, type JsonSchema, type Tool } from '../../mcp/index.ts'
import { CONTACT_API_PATH, SUBJECTS_API_PATH } from '../paths.ts'
import { ContatoIn, ContatoOut } from '../schemas.ts'
import type { ContactService } from '../service.ts'
import { AGENT_KEY_ARGUMENT, contactKey } from './contact-key.ts'
import type { ContactSender } from './send-contact.ts'

/** The contact form's fields, and the agent's own key for its retries. */
const ENVIAR_CONTATO_IN: JsonSchema = (() => {
  const schema = toolSchema(ContatoIn)
  return { ...schema, properties: { ...(schema.properties as object), chave_idempotencia: AGENT_KEY_ARGUMENT } }
})()

export type ContactToolDeps = {
  contact: ContactService
  sendContact: ContactSender
  /** The contact budget of the request's credential (POST /api/site/contato's, per IP there). */
  contactLimit: KeyedLimit
}

export function contactTools(deps: ContactToolDeps): Tool[] {
  return [
    {
      name: 'assuntos_contato', title: 'Assuntos do contato', twin: publicTwin('GET', SUBJECTS_API_PATH),
      description: 'Os assuntos que enviar_contato aceita (`codigo`) e a caixa de cada um; um assunto desconhecido vai para `geral`.',
      output: toolSchema({
        type: 'object', required: ['assuntos'],
        properties: {
          assuntos: {
            type: 'array', items: { type: 'object', properties: { codigo: { type: 'string' }, rotulo: { type: 'string' }, destino: { type: 'string' } } },
          },
        },
      }),
      run: async () => ok({ assuntos: deps.contact.subjects.list().map((s) => ({ codigo: s.codigo, rotulo: s.rotulo, destino: s.email })) }),
    },
    {
      name: 'enviar_contato', title: 'Enviar mensagem de contato', twin: publicTwin('POST', CONTACT_API_PATH),
      description: 'Envia o formulário de contato, como POST /api/site/contato: guarda a mensagem e a encaminha à caixa do assunto. '
        + 'Repetir a chamada (a mesma `chave_idempotencia`, ou sem ela a mesma mensagem) envia uma só mensagem e responde o mesmo protocolo.',
      // Checked by the contact service, as POST /api/site/contato checks it: the same 422 items.
      input: ENVIAR_CONTATO_IN, checksInput: true,
      output: toolSchema(ContatoOut),
      run: async (args, call) => {
        const { chave_idempotencia: given, ...message } = args
        if (given !== undefined && !isPlainKey(given)) return { ok: false, detail: 'chave_idempotencia_invalida' }
        const checked = deps.contact.validate(message)
        if (!checked.ok) return { ok: false, detail: checked.errors }
        const limit = await deps.contactLimit(call.by)
        if (limit.exceeded) return { ok: false, detail: 'limite_de_requisicoes', extra: { retry_after: limit.retryAfterSeconds } }
        const sent = await deps.sendContact(contactKey(given, checked.value), checked.value, call.by, call.credential)
        if (sent.kind === 'in_use') return { ok: false, detail: 'chave_idempotencia_em_uso', extra: { retry_after: IN_USE_RETRY_AFTER_SECONDS } }
        if (sent.kind === 'reused') return { ok: false, detail: 'chave_idempotencia_reutilizada' }
        if (sent.kind !== 'accepted') return { ok: false, detail: 'servico_indisponivel' }
        const { protocolo, destino, mensagem } = sent
        return ok({ protocolo, destino, mensagem })
      },
    },
  ]
}

// The credential layer's own endpoints' bodies. Inline schemas, no $id: a named one would be listed among the
// public document's components (/openapi.json stays exactly the public contract).
import { Type } from 'typebox'
import { AUDIT_ACTIONS, AUDIT_CURSOR_MAX, AUDIT_PAGE_MAX } from '../../../platform/tenancy/audit/store.ts'
import { SCOPES } from '../../credentials/index.ts'

const Instant = Type.String({ format: 'date-time' })
const OptionalInstant = Type.Union([Instant, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })
const Escopos = Type.Array(Type.String({ enum: [...SCOPES], description: SCOPES.join(', ') }))

export const ContaOut = Type.Object({
  cliente: Type.Object({ id: Uuid, nome: Type.String() }),
  credencial: Type.Object({
    tipo: Type.Union([Type.Literal('pat'), Type.Literal('sessao')], { description: '`pat`: a personal access token; `sessao`: the web app\'s session.' }),
    id: Uuid,
    nome: Type.String({ description: 'The token\'s name, or the name of the person of the session.' }),
    escopos: Escopos,
    expira_em: Instant,
    dpop: Type.Boolean({ description: 'Presented with a DPoP proof of the key the token is bound to.' }),
  }),
}, { description: 'The customer and the credential of this request.' })

const TokenOut = Type.Object({
  id: Uuid,
  nome: Type.String(),
  escopos: Escopos,
  estado: Type.Union([Type.Literal('ativo'), Type.Literal('revogado'), Type.Literal('expirado')]),
  criado_em: Instant,
  expira_em: Instant,
  primeiro_uso_em: OptionalInstant,
  ultimo_uso_em: OptionalInstant,
  ultimo_uso_ip: Type.Union([Type.String(), Type.Null()]),
  revogado_em: OptionalInstant,
  dpop_jkt: Type.Union([Type.String({ description: 'RFC 7638 thumbprint of the key the token is bound to.' }), Type.Null()]),
  usuario_id: Type.Union([Uuid, Type.Null()], { description: 'Who made it; null when the operator did.' }),
})

export const TokensOut = Type.Object({
  tokens: Type.Array(TokenOut, { description: 'Newest first, revoked and expired ones included; never a secret.' }),
})

export const TokenParams = Type.Object({ id: Type.String({ description: 'The token\'s id (GET /conta/tokens).' }) })

// Query values arrive as text and the service's Ajv does not coerce types: whole numbers by pattern, bounded as
// the MCP tool's arguments are (AUDIT_PAGE_MAX, AUDIT_CURSOR_MAX: 15 nines, so at most 15 digits).
export const AuditoriaQuery = Type.Object({
  limite: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9]{2}|200)$', description: `Entries per page, 1 to ${AUDIT_PAGE_MAX} (default 50).` })),
  antes: Type.Optional(Type.String({
    pattern: `^[1-9][0-9]{0,${String(AUDIT_CURSOR_MAX).length - 1}}$`, description: 'The `proximo` of the previous page.',
  })),
  ator_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only what this person (or this token) did.' })),
  acao: Type.Optional(Type.String({ enum: [...AUDIT_ACTIONS], description: 'Only this action.' })),
  alvo_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only what was done to this (an operation, a cedente, a payment, a token…).' })),
  de: Type.Optional(Type.String({ format: 'date', description: 'From this day on (Brasília), inclusive.' })),
  ate: Type.Optional(Type.String({ format: 'date', description: 'Up to this day (Brasília), inclusive.' })),
})

export const AuditoriaOut = Type.Object({
  itens: Type.Array(Type.Object({
    id: Type.Integer({ description: 'The row\'s number within the customer, 1, 2, 3…: what `antes` pages by.' }),
    em: Instant,
    ator_tipo: Type.Union([Type.Literal('usuario'), Type.Literal('token'), Type.Literal('operador')]),
    ator_id: Type.Union([Uuid, Type.Null()]),
    ator_nome: Type.Union([Type.String(), Type.Null()], { description: 'The person\'s name, or the token\'s; null for the service\'s operator.' }),
    acao: Type.String({ description: 'e.g. `token.criado`, `token.primeiro_uso`, `token.recusado`, `login.sucesso`.' }),
    alvo_id: Type.Union([Uuid, Type.Null()]),
    alvo_nome: Type.Union([Type.String(), Type.Null()], {
      description: 'What was acted on, by name ("Operação nº 12", a cedente\'s or a person\'s name); null when it has none or is gone.' }),
    alvo_operacao_id: Type.Union([Uuid, Type.Null()], { description: 'For a payment\'s action, its operation (where the payment is read).' }),
    motivo: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.Union([
      Type.String({ description: 'The service\'s own id of the request that did it (its X-Request-ID when the client sent none).' }), Type.Null(),
    ]),
    request_id_cliente: Type.Union([Type.String({ description: 'The X-Request-ID the client sent with that request, as it sent it.' }), Type.Null()]),
    alteracoes: Type.Union([Type.Record(Type.String(), Type.Object({ antes: Type.Unknown(), depois: Type.Unknown() })), Type.Null()], {
      description: 'A change\'s fields, each before and after (`{"limite_centavos": {"antes": null, "depois": 500000}}`); null for other actions.',
    }),
  })),
  proximo: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `antes` for the next (older) page; null on the last.' }),
}, { description: 'The customer\'s audit trail, newest first.' })

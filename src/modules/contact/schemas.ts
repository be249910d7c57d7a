import { Type, type Static } from 'typebox'
import { DEFAULT_SUBJECT } from './subjects.ts'

export const ContatoIn = Type.Object({
  nome: Type.String({ minLength: 2, maxLength: 120 }),
  email: Type.String({ format: 'email' }),
  assunto: Type.Optional(Type.String({
    default: DEFAULT_SUBJECT, description: 'A code from GET /site/contato/assuntos; an unknown one is normalized to `geral`.',
  })),
  mensagem: Type.String({ minLength: 10, maxLength: 4000 }),
  empresa: Type.Optional(Type.String({ maxLength: 140, default: '' })),
  telefone: Type.Optional(Type.String({ maxLength: 40, default: '' })),
  site: Type.Optional(Type.String({ maxLength: 200, default: '' })),
}, { $id: 'ContatoIn', title: 'ContatoIn' })

export type ContatoInT = Static<typeof ContatoIn>

export const ContatoOut = Type.Object({
  protocolo: Type.String(),
  destino: Type.String(),
  mensagem: Type.String(),
}, { $id: 'ContatoOut', title: 'ContatoOut' })
export type ContatoOutT = Static<typeof ContatoOut>

export const AssuntosOut = Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.String())), {
  description: 'Subjects a client can offer; `codigo` is what POST /site/contato takes as `assunto`.',
})

export const EstadoOut = Type.Object({}, {
  additionalProperties: true, description: 'Whether this environment can really send e-mail, and the delivery queue.',
})

import { Type, type Static } from 'typebox'
import { ref } from '../../platform/http/schema-ref.ts'

export const VersionOut = Type.Object({
  versao: Type.String(),
  commit: Type.String(),
  ambiente: Type.String({ description: '`producao` or `sandbox`; empty in an unstamped development build.' }),
  build_em: Type.String(),
  schema_versao: Type.String(),
}, { $id: 'VersionOut', title: 'VersionOut' })

export const ServicoOut = Type.Object({
  nome: Type.String(),
  ok: Type.Boolean(),
  latencia_ms: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  modo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
}, { $id: 'ServicoOut', title: 'ServicoOut' })

const DateTimeOrNull = Type.Union([Type.String({ format: 'date-time' }), Type.Null()])

export const ManutencaoOut = Type.Object({
  inicio: DateTimeOrNull,
  fim: DateTimeOrNull,
  mensagem: Type.Union([Type.String(), Type.Null()]),
  em_curso: Type.Optional(Type.Boolean({ default: false })),
  anunciada: Type.Optional(Type.Boolean({ default: false })),
}, { $id: 'ManutencaoOut', title: 'ManutencaoOut' })

/** The overall state. The contract publishes a plain string (it does not list the values); the code knows them. */
export type StatusValue = 'operacional' | 'degradado' | 'indisponivel' | 'manutencao'

export const StatusOut = Type.Object({
  status: Type.Unsafe<StatusValue>(Type.String()),
  ambiente: Type.String(),
  versao: Type.String(),
  servicos: Type.Array(ref(ServicoOut)),
  manutencao: Type.Union([ref(ManutencaoOut), Type.Null()]),
  verificado_em: Type.String({ format: 'date-time' }),
}, { $id: 'StatusOut', title: 'StatusOut' })

export const HealthOut = Type.Object({ status: Type.String() })

export type ServicoOutT = Static<typeof ServicoOut>
export type ManutencaoOutT = Static<typeof ManutencaoOut>
export type StatusOutT = Static<typeof StatusOut>

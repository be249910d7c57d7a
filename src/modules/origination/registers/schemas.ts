// The registers' bodies (produto.md §2.1), as the routes validate and serialize them and the customers' document
// shows them. Inline schemas, no $id (the public document stays exactly the contract). Money is an integer of
// centavos up to 2^53 − 1; a fraction, a string or a float is a 422.
import { Type, type Static } from 'typebox'
import { listAnswer, listQuery } from '../../../platform/http/list-query.ts'
import { writtenTextPattern } from '../../../platform/lib/chosen-name.ts'
import { CODIGOS_MOTIVO_ISENCAO, PERFIS_IOF } from './iof-profile.ts'

export const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI',
  'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'] as const
export const MAX_CENTAVOS = Number.MAX_SAFE_INTEGER
/** How many bank accounts a cedente may have. */
export const MAX_CONTAS = 20

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })
const Centavos = Type.Integer({ minimum: 0, maximum: MAX_CENTAVOS })

const IdExterno = Type.String({ pattern: '^[!-~]{1,64}$', description: 'Your own id for it: 1–64 visible ASCII characters, unique per kind.' })
const DocumentoIn = Type.String({
  minLength: 11, maxLength: 20, pattern: '^[0-9A-Za-z./ -]+$',
  description: 'CPF (11 digits) or CNPJ (14 characters, the alphanumeric one included), with or without punctuation.',
})
const RazaoSocial = Type.String({ minLength: 2, maxLength: 200 })
const NomeFantasia = Type.String({ minLength: 1, maxLength: 200 })
const Email = Type.String({ format: 'email', maxLength: 254 })
const Telefone = Type.String({ pattern: '^\\+?[0-9]{8,15}$', description: 'Digits only, optionally with a leading +.' })
const MunicipioIbge = Type.String({ pattern: '^[0-9]{7}$', description: 'The municipality\'s 7-digit IBGE code: its holidays apply.' })
const Uf = Type.String({ enum: [...UFS] })
const Estado = Type.String({ enum: ['ativo', 'bloqueado'], description: '`bloqueado`: takes part in no new operation.' })
const PerfilIof = Type.String({
  enum: [...PERFIS_IOF],
  description: 'The IOF rates that apply to its operations (§2.4): `pj` and `pj_simples` for a CNPJ, `pf` for a CPF, `isento` for either.',
})
const MotivoIsencao = Type.String({
  enum: [...CODIGOS_MOTIVO_ISENCAO],
  description: 'Why it owes no IOF, a code of the list (the docs give each one\'s legal basis): required with `perfil_iof` `isento`, refused otherwise.',
})
const DeclaracaoSimplesIn = Type.Object({
  data: Type.String({ format: 'date', description: 'The day the cedente declared it is optante do Simples Nacional: not after today in Brasília.' }),
  sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'The SHA-256 of the signed declaration, hex (kept lower-case).' }),
}, {
  additionalProperties: false,
  description: 'The cedente\'s declaration behind the Simples Nacional rate: required with `perfil_iof` `pj_simples`, refused otherwise. '
    + 'A new one replaces the one before; a change to another profile drops it.',
})

export const ContaBancaria = Type.Object({
  banco: Type.String({ pattern: '^[0-9]{3}$', description: 'The bank\'s 3-digit COMPE code.' }),
  agencia: Type.String({ pattern: '^[0-9]{1,5}$' }),
  conta: Type.String({ pattern: '^[0-9]{1,13}$' }),
  digito: Type.String({ pattern: '^[0-9Xx]{1,2}$' }),
  titular_documento: Type.String({ ...DocumentoIn, description: 'The holder\'s CPF or CNPJ: the cedente\'s own.' }),
}, { additionalProperties: false })

// A change names only what changes; the document and the external id are who it is, and never change.
const patchOf = <T extends Record<string, Parameters<typeof Type.Optional>[0]>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> }

const contact = {
  razao_social: RazaoSocial,
  nome_fantasia: Type.Optional(nullable(NomeFantasia)),
  email: Type.Optional(nullable(Email)),
  telefone: Type.Optional(nullable(Telefone)),
  municipio_ibge: Type.Optional(nullable(MunicipioIbge)),
  uf: Type.Optional(nullable(Uf)),
  limite_centavos: Type.Optional(nullable(Centavos)),
}

const Texto = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: writtenTextPattern(1), description })

/**
 * The sacado's address, as the banks print it on the boleto and read it in a remessa (CNAB 240 segment Q; 400's
 * detail): each part optional, and `uf` is the sacado's own. A charge goes in a remessa once the address has its
 * logradouro, CEP, cidade and UF.
 */
const endereco = {
  logradouro: nullable(Texto(200, 'Street, avenue… (the remessa keeps its first 40 characters with the número).')),
  numero: nullable(Texto(20, 'The number on the street ("100", "s/n").')),
  complemento: nullable(Texto(100, 'Apartment, room, block…')),
  bairro: nullable(Texto(100, 'The district.')),
  cep: nullable(Type.String({ pattern: '^[0-9]{5}-?[0-9]{3}$', description: 'The CEP, 01304001 or 01304-001; kept and answered as its 8 digits.' })),
  cidade: nullable(Texto(100, 'The city\'s name.')),
}

export const SacadoIn = Type.Object({
  id_externo: Type.Optional(IdExterno),
  documento: DocumentoIn,
  ...contact,
  ...patchOf(endereco),
}, { additionalProperties: false })

export const CedenteIn = Type.Object({
  id_externo: Type.Optional(IdExterno),
  documento: DocumentoIn,
  ...contact,
  perfil_iof: PerfilIof,
  motivo_isencao: Type.Optional(nullable(MotivoIsencao)),
  declaracao_simples: Type.Optional(DeclaracaoSimplesIn),
  contas_bancarias: Type.Optional(Type.Array(ContaBancaria, { maxItems: MAX_CONTAS })),
}, { additionalProperties: false })

export const SacadoPatch = Type.Object({
  ...patchOf({ razao_social: RazaoSocial, nome_fantasia: nullable(NomeFantasia), email: nullable(Email), telefone: nullable(Telefone),
    municipio_ibge: nullable(MunicipioIbge), uf: nullable(Uf), limite_centavos: nullable(Centavos), estado: Estado, ...endereco }),
}, { additionalProperties: false, minProperties: 1 })

export const CedentePatch = Type.Object({
  ...patchOf({ razao_social: RazaoSocial, nome_fantasia: nullable(NomeFantasia), email: nullable(Email), telefone: nullable(Telefone),
    municipio_ibge: nullable(MunicipioIbge), uf: nullable(Uf), limite_centavos: nullable(Centavos), estado: Estado,
    perfil_iof: PerfilIof, motivo_isencao: nullable(MotivoIsencao), declaracao_simples: DeclaracaoSimplesIn,
    contas_bancarias: Type.Array(ContaBancaria, { maxItems: MAX_CONTAS }) }),
}, { additionalProperties: false, minProperties: 1 })

const partyOut = {
  id: Uuid,
  id_externo: nullable(Type.String()),
  documento: Type.String({ description: 'Bare and upper-case.' }),
  tipo_pessoa: Type.String({ enum: ['pf', 'pj'] }),
  razao_social: Type.String(),
  nome_fantasia: nullable(Type.String()),
  email: nullable(Type.String()),
  telefone: nullable(Type.String()),
  municipio_ibge: nullable(Type.String()),
  uf: nullable(Type.String()),
  limite_centavos: nullable(Type.Integer()),
  exposicao_centavos: Type.Integer({ description: 'Computed: the open balance of its acquired títulos.' }),
  estado: Type.String({ enum: ['ativo', 'bloqueado'] }),
  criado_em: Instant,
  atualizado_em: Instant,
}

export const SacadoOut = Type.Object({
  ...partyOut,
  logradouro: nullable(Type.String()), numero: nullable(Type.String()), complemento: nullable(Type.String()), bairro: nullable(Type.String()),
  cep: nullable(Type.String()), cidade: nullable(Type.String()),
}, { description: 'The sacado, with its address (the remessa prints it).' })
/** A cedente's account as stored: when it was added and by whom, and whether (and by whom) it was confirmed. */
export const ContaBancariaOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  banco: Type.String(), agencia: Type.String(), conta: Type.String(), digito: Type.String(), titular_documento: Type.String(),
  confirmada: Type.Boolean({ description: 'Usable for a payment: given at registration, or confirmed since by a second person.' }),
  incluida_em: Instant,
  incluida_por_usuario_id: nullable(Type.String({ format: 'uuid', description: 'The person who added it (null: a token with no person).' })),
  confirmada_em: nullable(Instant),
  confirmada_por_usuario_id: nullable(Type.String({ format: 'uuid', description: 'Null for an account given at registration.' })),
})
export const ContaParams = Type.Object({
  id: Type.String({ description: 'The cedente\'s `id`.' }), conta_id: Type.String({ description: 'The account\'s `id`.' }),
})
export const CedenteOut = Type.Object({
  ...partyOut,
  perfil_iof: Type.String({ enum: [...PERFIS_IOF] }),
  motivo_isencao: nullable(Type.String({ enum: [...CODIGOS_MOTIVO_ISENCAO] })),
  declaracao_simples: nullable(Type.Object({ data: Type.String({ format: 'date' }), sha256: Type.String() },
    { description: 'With `pj_simples`: the day the cedente declared it is optante do Simples Nacional, and the signed declaration\'s SHA-256.' })),
  contas_bancarias: Type.Array(ContaBancariaOut),
}, { description: 'The cedente.' })

/** The list's page: `limite` (1–200, default 50) and `antes` (the previous page's `proximo`), and the filters. */
/** The orders a register's list takes (lists.ts sorts by them). */
export const PARTY_ORDERS = ['razao_social', 'documento', 'criado'] as const

export const PartyQuery = listQuery(PARTY_ORDERS, '-criado', {
  documento: Type.Optional(DocumentoIn),
  estado: Type.Optional(Estado),
  id_externo: Type.Optional(IdExterno),
})

export const CedentesOut = listAnswer(CedenteOut)
export const SacadosOut = listAnswer(SacadoOut)

export const PartyParams = Type.Object({ id: Type.String({ description: 'Its `id`.' }) })

export type CedenteInT = Static<typeof CedenteIn>
export type SacadoInT = Static<typeof SacadoIn>
export type ContaBancariaT = Static<typeof ContaBancaria>

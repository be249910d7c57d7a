// Drizzle's view of the registers' tables (migrations 0015_cadastros.sql, 0028_perfil_iof.sql and 0041_remessas.sql are the source of truth).
import { bigint, date, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { CODIGOS_MOTIVO_ISENCAO, PERFIS_IOF, type MotivoIsencao } from './iof-profile.ts'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** The columns a cedente and a sacado share. */
const party = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  idExterno: text('id_externo'),
  documento: text('documento').notNull(),
  tipoPessoa: text('tipo_pessoa', { enum: ['pf', 'pj'] }).notNull(),
  razaoSocial: text('razao_social').notNull(),
  nomeFantasia: text('nome_fantasia'),
  email: text('email'),
  telefone: text('telefone'),
  municipioIbge: text('municipio_ibge'),
  uf: text('uf'),
  limiteCentavos: bigint('limite_centavos', { mode: 'bigint' }),
  estado: text('estado', { enum: ['ativo', 'bloqueado'] }).notNull().default('ativo'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  atualizadoEm: tz('atualizado_em').notNull().defaultNow(),
})

export const cedentes = pgTable('cedentes', {
  ...party(),
  perfilIof: text('perfil_iof', { enum: [...PERFIS_IOF] }).notNull(),
  motivoIsencao: text('motivo_isencao', { enum: CODIGOS_MOTIVO_ISENCAO as [MotivoIsencao, ...MotivoIsencao[]] }),
  simplesDeclaradoEm: date('simples_declarado_em', { mode: 'string' }),
  simplesDeclaracaoSha256: text('simples_declaracao_sha256'),
})

export const sacados = pgTable('sacados', {
  ...party(),
  // The address a remessa prints (migration 0041).
  logradouro: text('logradouro'),
  numero: text('numero'),
  complemento: text('complemento'),
  bairro: text('bairro'),
  cep: text('cep'),
  cidade: text('cidade'),
})

export const cedenteContas = pgTable('cedente_contas', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  cedenteId: uuid('cedente_id').notNull(),
  ordem: smallint('ordem').notNull(),
  banco: text('banco').notNull(),
  agencia: text('agencia').notNull(),
  conta: text('conta').notNull(),
  digito: text('digito').notNull(),
  titularDocumento: text('titular_documento').notNull(),
  incluidaEm: timestamp('incluida_em', { withTimezone: true }).notNull(),
  incluidaPorUsuarioId: uuid('incluida_por_usuario_id'),
  confirmadaEm: timestamp('confirmada_em', { withTimezone: true }),
  confirmadaPorUsuarioId: uuid('confirmada_por_usuario_id'),
})

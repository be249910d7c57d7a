// Drizzle's view of the registers' tables (migration 0015_cadastros.sql is the source of truth).
import { bigint, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

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
  perfilIof: text('perfil_iof', { enum: ['pj', 'pj_simples', 'pf', 'isento'] }).notNull(),
  motivoIsencao: text('motivo_isencao'),
})

export const sacados = pgTable('sacados', party())

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

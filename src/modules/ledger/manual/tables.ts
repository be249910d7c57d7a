// Drizzle's view of the manual entries' proposals (migration 0033_lancamentos_manuais.sql is the source of truth:
// it also holds the balance, the second person and what a posting of one must be).
import { bigint, date, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

export const MOTIVOS = ['aporte_capital', 'funding_recebido', 'tarifa_bancaria', 'ajuste'] as const
export type Motivo = (typeof MOTIVOS)[number]

export const ESTADOS = ['aguardando_confirmacao', 'confirmado', 'recusado'] as const
export type Estado = (typeof ESTADOS)[number]

/** A proposed line as kept: exactly one side above zero. */
export type ManualLine = { conta: string, debito_centavos: number, credito_centavos: number }

export const lancamentosManuais = pgTable('lancamentos_manuais', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  data: date('data', { mode: 'string' }).notNull(),
  historico: text('historico').notNull(),
  motivo: text('motivo', { enum: MOTIVOS }).notNull(),
  justificativa: text('justificativa').notNull(),
  linhas: jsonb('linhas').$type<ManualLine[]>().notNull(),
  estado: text('estado', { enum: ESTADOS }).notNull().default('aguardando_confirmacao'),
  solicitanteUsuarioId: uuid('solicitante_usuario_id').notNull(),
  confirmadoPorUsuarioId: uuid('confirmado_por_usuario_id'),
  confirmadoEm: timestamp('confirmado_em', { withTimezone: true, mode: 'date' }),
  lancamentoId: uuid('lancamento_id'),
  recusadoPorUsuarioId: uuid('recusado_por_usuario_id'),
  recusadoEm: timestamp('recusado_em', { withTimezone: true, mode: 'date' }),
  motivoRecusa: text('motivo_recusa'),
  criadoEm: timestamp('criado_em', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  atualizadoEm: timestamp('atualizado_em', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

export type ManualEntry = typeof lancamentosManuais.$inferSelect

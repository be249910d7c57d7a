// Drizzle's view of the ledger (migration 0020_razao.sql is the source of truth: it also enforces the balance).
import { customerNumber } from '../../platform/db/customer-number.ts'
import { bigint, date, pgTable, smallint, text, timestamp, uuid, boolean } from 'drizzle-orm/pg-core'
import { ORIGENS } from './origins.ts'

export const contasContabeis = pgTable('contas_contabeis', {
  codigo: text('codigo').primaryKey(),
  nome: text('nome').notNull(),
  natureza: text('natureza', { enum: ['devedora', 'credora'] }).notNull(),
  porCedente: boolean('por_cedente').notNull(),
  ordem: smallint('ordem').notNull(),
})

export const lancamentos = pgTable('lancamentos', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  numero: customerNumber(),
  data: date('data', { mode: 'string' }).notNull(),
  historico: text('historico').notNull(),
  origemTipo: text('origem_tipo', { enum: ORIGENS }).notNull(),
  origemId: uuid('origem_id').notNull(),
  requestId: text('request_id'),
  criadoEm: timestamp('criado_em', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

export const lancamentoLinhas = pgTable('lancamento_linhas', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  clienteId: uuid('cliente_id').notNull(),
  lancamentoId: uuid('lancamento_id').notNull(),
  data: date('data', { mode: 'string' }).notNull(),
  lancamentoSeq: bigint('lancamento_seq', { mode: 'number' }).notNull(),
  conta: text('conta').notNull(),
  cedenteId: uuid('cedente_id'),
  debitoCentavos: bigint('debito_centavos', { mode: 'bigint' }).notNull(),
  creditoCentavos: bigint('credito_centavos', { mode: 'bigint' }).notNull(),
})

// Drizzle's view of the remessas (migration 0041_remessas.sql is the source of truth).
import { bigint, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { LAYOUTS_CNAB } from '../accounts/tables.ts'

export const remessas = pgTable('remessas', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  contaCobrancaId: uuid('conta_cobranca_id').notNull(),
  nsa: integer('nsa').notNull(),
  layout: text('layout', { enum: LAYOUTS_CNAB }).notNull(),
  nomeArquivo: text('nome_arquivo').notNull(),
  conteudo: text('conteudo').notNull(),
  sha256: text('sha256').notNull(),
  registros: integer('registros').notNull(),
  cobrancas: integer('cobrancas').notNull(),
  instrucoes: integer('instrucoes').notNull(),
  valorCentavos: bigint('valor_centavos', { mode: 'number' }).notNull(),
  criadoEm: timestamp('criado_em', { withTimezone: true, mode: 'date' }).notNull(),
})

export const remessaItens = pgTable('remessa_itens', {
  clienteId: uuid('cliente_id').notNull(),
  remessaId: uuid('remessa_id').notNull(),
  ordem: integer('ordem').notNull(),
  cobrancaId: uuid('cobranca_id'),
  instrucaoId: uuid('instrucao_id'),
})

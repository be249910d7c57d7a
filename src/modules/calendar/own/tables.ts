// Drizzle's view of the customer's own holidays (migration 0017_feriados.sql is the source of truth).
import { date, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

export const feriados = pgTable('feriados', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  data: date('data', { mode: 'string' }).notNull(),
  descricao: text('descricao').notNull(),
  municipioIbge: text('municipio_ibge'),
  uf: text('uf'),
  criadoEm: timestamp('criado_em', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

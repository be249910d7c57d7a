// Drizzle's view of the charges' instructions (migration 0040_cobranca_instrucoes.sql is the source of truth).
import { bigint, date, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { TRANSPORTES } from '../accounts/tables.ts'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** What a customer may ask of a registered charge (remessa240.ts's `entrada` is the registration itself). */
export const INSTRUCOES = ['alteracao_vencimento', 'abatimento', 'baixa', 'protestar', 'sustar_protesto'] as const
export type InstrucaoPedida = (typeof INSTRUCOES)[number]
export const ESTADOS_INSTRUCAO = ['pendente', 'enviada', 'confirmada', 'rejeitada'] as const
export type EstadoInstrucao = (typeof ESTADOS_INSTRUCAO)[number]

export const cobrancaInstrucoes = pgTable('cobranca_instrucoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  cobrancaId: uuid('cobranca_id').notNull(),
  instrucao: text('instrucao', { enum: INSTRUCOES }).notNull(),
  vencimento: date('vencimento', { mode: 'string' }),
  abatimentoCentavos: bigint('abatimento_centavos', { mode: 'number' }),
  transporte: text('transporte', { enum: TRANSPORTES }).notNull(),
  estado: text('estado', { enum: ESTADOS_INSTRUCAO }).notNull(),
  tentativas: integer('tentativas').notNull().default(0),
  proximaEm: tz('proxima_em'),
  erro: text('erro'),
  bancoResposta: jsonb('banco_resposta').$type<Record<string, unknown>>(),
  lancamentoId: uuid('lancamento_id'),
  iofCentavos: bigint('iof_centavos', { mode: 'number' }),
  iofDias: integer('iof_dias'),
  criadoEm: tz('criado_em').notNull(),
  atualizadoEm: tz('atualizado_em').notNull(),
})

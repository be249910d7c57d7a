// Drizzle's view of the pricing terms (migration 0018_produtos.sql is the source of truth).
import { bigint, boolean, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const produtos = pgTable('produtos', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  idExterno: text('id_externo'),
  nome: text('nome').notNull(),
  versaoAtual: integer('versao_atual').notNull().default(1),
  criadoEm: tz('criado_em').notNull().defaultNow(),
})

export const produtoVersoes = pgTable('produto_versoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  produtoId: uuid('produto_id').notNull(),
  versao: integer('versao').notNull(),
  base: text('base', { enum: ['simples_30', 'composta_30'] }).notNull(),
  taxaMensal: numeric('taxa_mensal').notNull(),
  taxaAdValorem: numeric('taxa_ad_valorem').notNull(),
  tarifaPorTituloCentavos: bigint('tarifa_por_titulo_centavos', { mode: 'bigint' }).notNull(),
  tacCentavos: bigint('tac_centavos', { mode: 'bigint' }).notNull(),
  diasFloat: jsonb('dias_float').$type<Record<string, number>>().notNull(),
  iof: text('iof', { enum: ['calcular', 'isento'] }).notNull(),
  motivoIsencao: text('motivo_isencao'),
  coobrigacao: boolean('coobrigacao').notNull().default(false),
  exigeConfirmacao: boolean('exige_confirmacao').notNull().default(false),
  exigeRegistro: boolean('exige_registro').notNull().default(false),
  criadoEm: tz('criado_em').notNull().defaultNow(),
})

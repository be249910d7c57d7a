// Drizzle's view of the charges (migration 0036_cobrancas.sql is the source of truth).
import { bigint, date, integer, jsonb, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { customerNumber } from '../../../platform/db/customer-number.ts'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const day = (name: string) => date(name, { mode: 'string' })

export const ESTADOS_COBRANCA = ['a_registrar', 'registrada', 'rejeitada', 'liquidada', 'baixada'] as const
export type EstadoCobranca = (typeof ESTADOS_COBRANCA)[number]
/** The states in which a charge is live: the título has no other (the partial unique index cobrancas_titulo_viva). */
export const ESTADOS_VIVOS: readonly EstadoCobranca[] = ['a_registrar', 'registrada']
export const TIPOS_JUROS = ['valor_dia', 'taxa_mensal', 'isento'] as const

export const cobrancas = pgTable('cobrancas', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  numero: customerNumber(),
  tituloId: uuid('titulo_id').notNull(),
  contaCobrancaId: uuid('conta_cobranca_id').notNull(),
  nossoNumero: text('nosso_numero').notNull(),
  nossoNumeroImpresso: text('nosso_numero_impresso').notNull(),
  codigoBarras: text('codigo_barras').notNull(),
  linhaDigitavel: text('linha_digitavel').notNull(),
  valorCentavos: bigint('valor_centavos', { mode: 'number' }).notNull(),
  vencimento: day('vencimento').notNull(),
  jurosTipo: text('juros_tipo', { enum: TIPOS_JUROS }).notNull(),
  jurosValorCentavos: bigint('juros_valor_centavos', { mode: 'number' }),
  jurosTaxaMensal: numeric('juros_taxa_mensal'),
  multaPercentual: numeric('multa_percentual').notNull(),
  descontoValorCentavos: bigint('desconto_valor_centavos', { mode: 'number' }).notNull(),
  descontoAte: day('desconto_ate'),
  protestoDias: smallint('protesto_dias').notNull(),
  estado: text('estado', { enum: ESTADOS_COBRANCA }).notNull(),
  pixCopiaECola: text('pix_copia_e_cola'),
  pixLocation: text('pix_location'),
  bancoResposta: jsonb('banco_resposta').$type<Record<string, unknown>>(),
  criadoEm: tz('criado_em').notNull(),
  atualizadoEm: tz('atualizado_em').notNull(),
  // The bank API's registration: attempts, when the next is due, and the last failure (migration 0038).
  registroTentativas: integer('registro_tentativas').notNull().default(0),
  registroProximaEm: tz('registro_proxima_em'),
  registroErro: text('registro_erro'),
})

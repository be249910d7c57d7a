// Drizzle's view of the collection accounts (migration 0035_contas_cobranca.sql is the source of truth).
import { bigint, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { BANCOS } from '../boleto/bancos.ts'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const LAYOUTS_CNAB = ['240', '400'] as const
export const TRANSPORTES = ['cnab', 'api'] as const

export const contasCobranca = pgTable('contas_cobranca', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  idExterno: text('id_externo'),
  nome: text('nome').notNull(),
  banco: text('banco', { enum: BANCOS }).notNull(),
  agencia: text('agencia').notNull(),
  agenciaDigito: text('agencia_digito'),
  conta: text('conta').notNull(),
  contaDigito: text('conta_digito').notNull(),
  carteira: text('carteira').notNull(),
  convenio: text('convenio'),
  layoutCnab: text('layout_cnab', { enum: LAYOUTS_CNAB }).notNull(),
  transporte: text('transporte', { enum: TRANSPORTES }).notNull(),
  chavePix: text('chave_pix'),
  proximoNossoNumero: bigint('proximo_nosso_numero', { mode: 'number' }).notNull(),
  proximaRemessa: integer('proxima_remessa').notNull(),
  ativa: boolean('ativa').notNull(),
  incluidaEm: tz('incluida_em').notNull(),
  incluidaPorUsuarioId: uuid('incluida_por_usuario_id').notNull(),
  confirmadaEm: tz('confirmada_em'),
  confirmadaPorUsuarioId: uuid('confirmada_por_usuario_id'),
  /** The people whose changes await (or had) the confirmation: who added it, and who changed where the money goes since (0046). */
  pendentePorUsuarioIds: uuid('pendente_por_usuario_ids').array().notNull(),
  atualizadaEm: tz('atualizada_em').notNull(),
})

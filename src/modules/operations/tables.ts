// Drizzle's view of the operations' tables (migration 0019_operacoes.sql is the source of truth).
import { customerNumber } from '../../platform/db/customer-number.ts'
import { bigint, date, integer, json, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const day = (name: string) => date(name, { mode: 'string' })
const money = (name: string) => bigint(name, { mode: 'bigint' })

export const ESTADOS_OPERACAO = ['rascunho', 'cotada', 'aceita', 'formalizada', 'em_desembolso', 'desembolsada', 'cancelada'] as const
export type EstadoOperacao = (typeof ESTADOS_OPERACAO)[number]
export const ESTADOS_TITULO = ['ofertado', 'adquirido', 'liquidado', 'recomprado', 'baixado', 'cancelado'] as const
/** Confirmation with the sacado (migration 0049): the last confirmation's result. */
export const ESTADOS_CONFIRMACAO = ['pendente', 'em_andamento', 'confirmado', 'parcial', 'contestado', 'sem_contato', 'dispensado'] as const
/** The título's place in the registry of duplicatas escriturais (migration 0050). */
export const ESTADOS_REGISTRO = ['nao_consultado', 'consulta_pendente', 'livre', 'impedido', 'cessao_pendente', 'cedido', 'cessao_recusada', 'quitado',
  'baixado'] as const
export const ESTADOS_DESEMBOLSO = ['aguardando_aprovacao', 'aprovado', 'pago', 'falhou', 'cancelado', 'recusado'] as const
export type EstadoDesembolso = (typeof ESTADOS_DESEMBOLSO)[number]

export type Signatario = { nome: string, documento: string }

export const operacoes = pgTable('operacoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  numero: customerNumber(),
  idExterno: text('id_externo'),
  cedenteId: uuid('cedente_id').notNull(),
  produtoId: uuid('produto_id').notNull(),
  dataOperacao: day('data_operacao').notNull(),
  estado: text('estado', { enum: ESTADOS_OPERACAO }).notNull().default('rascunho'),
  cotacaoVersao: integer('cotacao_versao').notNull().default(0),
  cotacaoAceita: integer('cotacao_aceita'),
  aceitaEm: tz('aceita_em'),
  termoSha256: text('termo_sha256'),
  assinadoEm: tz('assinado_em'),
  signatarios: jsonb('signatarios').$type<Signatario[]>(),
  motivoCancelamento: text('motivo_cancelamento'),
  canceladaEm: tz('cancelada_em'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  atualizadoEm: tz('atualizado_em').notNull().defaultNow(),
})

export const titulos = pgTable('titulos', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  idExterno: text('id_externo'),
  operacaoId: uuid('operacao_id').notNull(),
  cedenteId: uuid('cedente_id').notNull(),
  tipo: text('tipo', { enum: ['duplicata_mercantil', 'duplicata_servico', 'cheque', 'nota_promissoria', 'ccb', 'cte'] }).notNull(),
  numero: text('numero').notNull(),
  sacadoId: uuid('sacado_id').notNull(),
  emissao: day('emissao').notNull(),
  vencimento: day('vencimento').notNull(),
  valorFaceCentavos: money('valor_face_centavos').notNull(),
  chaveNfe: text('chave_nfe'),
  estado: text('estado', { enum: ESTADOS_TITULO }).notNull().default('ofertado'),
  saldoCentavos: money('saldo_centavos').notNull(),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  atualizadoEm: tz('atualizado_em').notNull().defaultNow(),
  // The deságio of the accepted quote's line, over its days, and how much of it is earned (migration 0037).
  desagioCentavos: money('desagio_centavos'),
  desagioDias: integer('desagio_dias'),
  desagioApropriadoCentavos: money('desagio_apropriado_centavos').notNull().default(0n),
  confirmacaoEstado: text('confirmacao_estado', { enum: ESTADOS_CONFIRMACAO }).notNull().default('pendente'),
  registroEstado: text('registro_estado', { enum: ESTADOS_REGISTRO }).notNull().default('nao_consultado'),
  registroSituacao: text('registro_situacao'),
})

export const cotacoes = pgTable('cotacoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  operacaoId: uuid('operacao_id').notNull(),
  versao: integer('versao').notNull(),
  produtoVersao: integer('produto_versao').notNull(),
  validaAte: tz('valida_ate').notNull(),
  valorFaceCentavos: money('valor_face_centavos').notNull(),
  desagioCentavos: money('desagio_centavos').notNull(),
  adValoremCentavos: money('ad_valorem_centavos').notNull(),
  tarifasCentavos: money('tarifas_centavos').notNull(),
  tacCentavos: money('tac_centavos').notNull(),
  iofCentavos: money('iof_centavos').notNull(),
  valorLiquidoCentavos: money('valor_liquido_centavos').notNull(),
  compensacoesCentavos: money('compensacoes_centavos').notNull().default(0n),
  calculo: json('calculo').$type<Record<string, unknown>>().notNull(),
  criadoEm: tz('criado_em').notNull().defaultNow(),
})

export const desembolsos = pgTable('desembolsos', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  operacaoId: uuid('operacao_id').notNull(),
  cedenteId: uuid('cedente_id').notNull(),
  valorCentavos: money('valor_centavos').notNull(),
  banco: text('banco').notNull(),
  agencia: text('agencia').notNull(),
  conta: text('conta').notNull(),
  digito: text('digito').notNull(),
  titularDocumento: text('titular_documento').notNull(),
  estado: text('estado', { enum: ESTADOS_DESEMBOLSO }).notNull().default('aguardando_aprovacao'),
  solicitadoPorTipo: text('solicitado_por_tipo', { enum: ['usuario', 'token'] }).notNull(),
  solicitadoPor: uuid('solicitado_por').notNull(),
  solicitanteUsuarioId: uuid('solicitante_usuario_id'),
  aprovadoPorUsuarioId: uuid('aprovado_por_usuario_id'),
  aprovadoEm: tz('aprovado_em'),
  idTransacao: text('id_transacao'),
  pagoEm: tz('pago_em'),
  motivoFalha: text('motivo_falha'),
  /** Refused by an approver (0032_desembolso_recusado.sql): who, when and why. */
  motivoRecusa: text('motivo_recusa'),
  recusadoPorUsuarioId: uuid('recusado_por_usuario_id'),
  recusadoEm: tz('recusado_em'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  atualizadoEm: tz('atualizado_em').notNull().defaultNow(),
})

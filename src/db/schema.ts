// Drizzle's view of the tables created by the SQL migrations in ./migrations (the SQL is the source of truth).
import { bigserial, bigint, boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const instalacao = pgTable('instalacao', {
  id: boolean('id').primaryKey(),
  salIp: text('sal_ip').notNull(),
})

export const contato = pgTable('contato', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  protocolo: text('protocolo').notNull(),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  assunto: text('assunto').notNull(),
  destino: text('destino').notNull(),
  nome: text('nome'),
  email: text('email'),
  mensagem: text('mensagem'),
  empresa: text('empresa'),
  telefone: text('telefone'),
  site: text('site'),
  impressao: text('impressao').notNull(),
  requestId: text('request_id').notNull(),
  ipHash: text('ip_hash').notNull(),
  dadosApagadosEm: tz('dados_apagados_em'),
  /** Why the contact was judged a bot's (never e-mailed); null for a person's. */
  spam: text('spam', { enum: ['honeypot', 'rapido', 'token'] }),
})

export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contatoId: bigint('contato_id', { mode: 'number' }).notNull(),
  protocolo: text('protocolo').notNull(),
  destino: text('destino').notNull(),
  estado: text('estado', { enum: ['pendente', 'enviando', 'enviado', 'sandbox', 'falhou'] }).notNull().default('pendente'),
  tentativas: integer('tentativas').notNull().default(0),
  proximaTentativaEm: tz('proxima_tentativa_em').notNull().defaultNow(),
  ultimoErro: text('ultimo_erro'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  atualizadoEm: tz('atualizado_em').notNull().defaultNow(),
  enviadoEm: tz('enviado_em'),
  eml: text('eml'),
  messageId: text('message_id'),
})

export const entregaTentativa = pgTable('entrega_tentativa', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  outboxId: bigint('outbox_id', { mode: 'number' }).notNull(),
  em: tz('em').notNull().defaultNow(),
  resultado: text('resultado', { enum: ['enviado', 'sandbox', 'adiado', 'falhou', 'liberado'] }).notNull(),
  codigoSmtp: integer('codigo_smtp'),
  erro: text('erro'),
})

export const auditoria = pgTable('auditoria', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  em: tz('em').notNull().defaultNow(),
  acao: text('acao').notNull(),
  protocolo: text('protocolo'),
  assunto: text('assunto'),
  requestId: text('request_id'),
  ipHash: text('ip_hash'),
})

export const manutencao = pgTable('manutencao', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  inicio: tz('inicio'),
  fim: tz('fim'),
  mensagem: text('mensagem'),
  declaradaEm: tz('declarada_em').notNull().defaultNow(),
  encerradaEm: tz('encerrada_em'),
})

export const schema = { instalacao, contato, outbox, entregaTentativa, auditoria, manutencao }

// Drizzle's view of the tables created by the SQL migrations in ./migrations (the SQL is the source of truth).
import { customerNumber } from './customer-number.ts'
import { bigserial, bigint, boolean, inet, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const instalacao = pgTable('instalacao', {
  id: boolean('id').primaryKey(),
  salIp: text('sal_ip').notNull(),
  /** Random per installation; purpose keys are derived from it (src/modules/credentials/installation-secret.ts). */
  segredo: text('segredo').notNull(),
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

/** The transports an outbox row may name (the CHECK of migration 0012 lists the same). */
export const TRANSPORTS = ['smtp'] as const

/** An e-mail's headers besides From, To, Subject, Date and Message-ID, as its producer set them (migration 0012). */
export type MailHeaders = { replyTo?: { name: string, address: string }, extra?: Record<string, string> }

/** A file a message carries, as the outbox keeps it. */
export type MailAttachment = { nome: string, tipo: string, base64: string }

export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Its producer's name for the message (`contato`, `convite`…): audit rows and listings; delivery never reads it. */
  tipo: text('tipo').notNull(),
  /** How it travels (migration 0012). Plain text here: a row of another release may name one this one lacks. */
  transporte: text('transporte').notNull().default('smtp'),
  /** Written by the database alone while the previous release runs (migration 0012's trigger); read by nothing. */
  contatoId: bigint('contato_id', { mode: 'number' }),
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
  // The message as its producer rendered it, erased once sent, expired or past its producer's retention
  // (conteudo_apagado_em).
  assuntoEmail: text('assunto_email'),
  texto: text('texto'),
  html: text('html'),
  cabecalhos: jsonb('cabecalhos').$type<MailHeaders>(),
  /** Files sent with it (migration 0045): a name, a media type, the bytes in base64. */
  anexos: jsonb('anexos').$type<MailAttachment[]>(),
  requestId: text('request_id'),
  clienteId: uuid('cliente_id'),
  expiraEm: tz('expira_em'),
  conteudoApagadoEm: tz('conteudo_apagado_em'),
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

/** DPoP proofs already seen (replay cache): hex SHA-256 of thumbprint and jti, kept until the proof's iat expires. */
export const dpopJti = pgTable('dpop_jti', {
  chave: text('chave').primaryKey(),
  expiraEm: tz('expira_em').notNull(),
})

// The credential layer (0005_credenciais.sql). Row-level security limits every query on these tables to the customer
// of the transaction (src/platform/tenancy/tenancy.ts); the runtime role cannot read `usuarios.senha_hash` back, so select the
// columns of `usuarios` you need, never the whole row.

export const clientes = pgTable('clientes', {
  id: uuid('id').primaryKey(),
  nome: text('nome').notNull(),
  documento: text('documento'),
  estado: text('estado', { enum: ['ativo', 'suspenso'] }).notNull().default('ativo'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  estadoEm: tz('estado_em').notNull().defaultNow(),
})

export const usuarios = pgTable('usuarios', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  email: text('email').notNull(),
  nome: text('nome').notNull(),
  /** Write-only for the runtime role: read through autentica_login(). */
  senhaHash: text('senha_hash'),
  estado: text('estado', { enum: ['convidado', 'ativo', 'suspenso'] }).notNull().default('convidado'),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  ativadoEm: tz('ativado_em'),
  papel: text('papel', { enum: ['administrador', 'operador', 'aprovador', 'consulta'] }).notNull().default('administrador'),
})

export const convites = pgTable('convites', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  usuarioId: uuid('usuario_id').notNull(),
  /** SHA-256 of the secret (src/modules/credentials/token-format.ts); looked up through autentica_convite() before the customer is known. */
  hash: text('hash').notNull(),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  expiraEm: tz('expira_em').notNull(),
  usadoEm: tz('usado_em'),
})

export const tokens = pgTable('tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  usuarioId: uuid('usuario_id'),
  nome: text('nome').notNull(),
  /** SHA-256 of the secret (src/modules/credentials/token-format.ts); looked up through autentica_token() before the customer is known. */
  hash: text('hash').notNull(),
  escopos: text('escopos').array().notNull(),
  criadoEm: tz('criado_em').notNull().defaultNow(),
  expiraEm: tz('expira_em').notNull(),
  primeiroUsoEm: tz('primeiro_uso_em'),
  ultimoUsoEm: tz('ultimo_uso_em'),
  ultimoUsoIp: inet('ultimo_uso_ip'),
  revogadoEm: tz('revogado_em'),
  dpopJkt: text('dpop_jkt'),
})

export const sessoes = pgTable('sessoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  clienteId: uuid('cliente_id').notNull(),
  usuarioId: uuid('usuario_id').notNull(),
  /** SHA-256 of the secret (src/modules/credentials/token-format.ts); looked up through autentica_sessao() before the customer is known. */
  hash: text('hash').notNull(),
  criadaEm: tz('criada_em').notNull().defaultNow(),
  ultimoAcessoEm: tz('ultimo_acesso_em').notNull().defaultNow(),
  expiraOciosaEm: tz('expira_ociosa_em').notNull(),
  expiraEm: tz('expira_em').notNull(),
  encerradaEm: tz('encerrada_em'),
})

export const auditoriaCliente = pgTable('auditoria_cliente', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  clienteId: uuid('cliente_id').notNull(),
  numero: customerNumber(),
  em: tz('em').notNull().defaultNow(),
  atorTipo: text('ator_tipo', { enum: ['usuario', 'token', 'operador'] }).notNull(),
  atorId: uuid('ator_id'),
  acao: text('acao').notNull(),
  alvoId: uuid('alvo_id'),
  motivo: text('motivo'),
  requestId: text('request_id'),
  /** The X-Request-ID the client sent, beside the service's own (0011_request_id_cliente.sql). */
  requestIdCliente: text('request_id_cliente'),
  ipHash: text('ip_hash'),
  /** Each field a change changed, `{campo: {antes, depois}}` (0027_auditoria_alteracoes.sql). */
  alteracoes: jsonb('alteracoes').$type<Changes>(),
})

/** The fields a change changed, each before and after. */
export type Changes = Record<string, { antes: unknown, depois: unknown }>

// Idempotency-Key answers (0009_idempotencia.sql), under row-level security like the credential tables: a customer's
// transaction sees its own keys, a transaction of no customer only the keys of no customer (the public routes).
export const chavesIdempotencia = pgTable('chaves_idempotencia', {
  escopo: text('escopo').notNull(),
  chave: text('chave').notNull(),
  clienteId: uuid('cliente_id'),
  impressao: text('impressao').notNull(),
  status: smallint('status').notNull(),
  cabecalhos: jsonb('cabecalhos').$type<Record<string, string>>().notNull(),
  corpo: text('corpo').notNull(),
  criadaEm: tz('criada_em').notNull(),
  expiraEm: tz('expira_em').notNull(),
}, (t) => [primaryKey({ columns: [t.escopo, t.chave] })])

export const schema = {
  instalacao, contato, outbox, entregaTentativa, auditoria, manutencao, dpopJti, clientes, usuarios, convites, tokens, sessoes, auditoriaCliente,
  chavesIdempotencia,
}

// Every page and fragment the site and /conta render, built from one value per field a customer, a visitor or an
// operator controls. `value(field)` gives that value: plain words for the reference rendering, an attack for the
// injection tests. Each sample is a whole document (in the layout), as a browser receives it.
import { DEFAULT_SUBJECTS, type Subject } from '../../src/modules/contact/subjects.ts'
import { accountPage, type AccountView } from '../../src/modules/account/web/account-views.ts'
import { activationPage, loginPage } from '../../src/modules/account/web/sign-in-views.ts'
import { messagePage, type Page } from '../../src/modules/account/web/view-parts.ts'
import type { TokenInfo } from '../../src/modules/credentials/tokens/store.ts'
import type { User } from '../../src/modules/credentials/users/store.ts'
import { formHtml, receiptBlock } from '../../src/modules/site/contact-form.ts'
import { layout } from '../../src/modules/site/layout.ts'
import { markdownToHtml } from '../../src/modules/site/markdown.ts'
import { block, mailboxesMarkdown } from '../../src/modules/site/page-blocks.ts'
import { statusHtml } from '../../src/modules/site/status-view.ts'
import type { StatusOutT } from '../../src/modules/status/schemas.ts'

export type Sample = { name: string, html: string }
export type ValueOf = (field: string) => string

const ASSETS = { css: '/assets/site.css', js: '/assets/site.js', icon: '/assets/icon.svg' }
const NOW = new Date('2026-11-26T12:00:00Z')
const LATER = new Date('2026-12-26T12:00:00Z')

const doc = (name: string, title: string, description: string, body: unknown, priv = false): Sample => ({
  name,
  html: String(layout({ title, description, path: '/pagina', body: body as never, assets: ASSETS, private: priv })),
})
const page = (name: string, p: Page): Sample => doc(name, p.title, p.description, p.body, true)

function subjects(v: ValueOf): Subject[] {
  return [...DEFAULT_SUBJECTS, { codigo: v('assunto.codigo'), rotulo: v('assunto.rotulo'), email: v('assunto.email') }]
}

function siteSamples(v: ValueOf): Sample[] {
  const values = Object.fromEntries(['nome', 'email', 'assunto', 'empresa', 'telefone', 'site', 'mensagem'].map((f) => [f, v(`form.${f}`)]))
  const errors = [{ type: 'missing', loc: ['body', 'nome'] }, { type: 'value_error', loc: ['body', 'email'] }, { type: 'x', loc: ['query'] }]
  const status: StatusOutT = {
    status: v('status.status') as StatusOutT['status'], ambiente: v('status.ambiente'), versao: '1.0.0',
    servicos: [{ nome: v('status.servico'), ok: false, latencia_ms: 12, modo: v('status.modo') }],
    manutencao: { inicio: null, fim: null, mensagem: v('status.manutencao'), em_curso: true, anunciada: true },
    verificado_em: NOW.toISOString(),
  }
  return [
    doc('layout', v('layout.title'), v('layout.description'), markdownToHtml('# Título')),
    doc('contato (erros)', 'Contato', 'd', formHtml(subjects(v), { values, errors, alert: v('form.alerta') })),
    doc('contato (assunto)', 'Contato', 'd', formHtml(subjects(v), { values: { ...values, assunto: v('assunto.codigo') }, errors: [] })),
    doc('recibo', 'Recibo', 'd', receiptBlock({ protocolo: v('recibo.protocolo'), destino: v('recibo.destino'), mensagem: v('recibo.mensagem') }).html),
    doc('status', 'Status', 'd', statusHtml(status)),
    // A Markdown component with values from configuration: the mailboxes of /privacidade.
    doc('caixas', 'Privacidade', 'd', block(mailboxesMarkdown(subjects(v))).html),
  ]
}

function person(v: ValueOf, n: number, estado: User['estado']): User {
  return {
    id: v(`pessoa${n}.id`), clienteId: 'c', email: v(`pessoa${n}.email`), nome: v(`pessoa${n}.nome`), estado, papel: 'administrador',
    criadoEm: NOW, ativadoEm: NOW,
  }
}

function token(v: ValueOf, n: number, over: Partial<TokenInfo> = {}): TokenInfo {
  return {
    id: v(`token${n}.id`), clienteId: 'c', usuarioId: null, nome: v(`token${n}.nome`), escopos: ['conta', 'mcp'], criadoEm: NOW, expiraEm: LATER,
    primeiroUsoEm: NOW, ultimoUsoEm: NOW, ultimoUsoIp: v(`token${n}.ip`), revogadoEm: null, dpopJkt: null, ...over,
  }
}

function accountView(v: ValueOf): AccountView {
  const user = person(v, 1, 'ativo')
  const session = (n: number) => ({
    id: v(`sessao${n}.id`), clienteId: 'c', usuarioId: user.id, criadaEm: NOW, ultimoAcessoEm: NOW, expiraOciosaEm: LATER, expiraEm: LATER, encerradaEm: null,
  })
  return {
    customer: { id: 'c', nome: v('cliente.nome'), documento: null, estado: 'ativo', criadoEm: NOW, estadoEm: NOW },
    user, people: [user, person(v, 2, 'convidado')],
    tokens: [token(v, 1), token(v, 2, { revogadoEm: NOW, dpopJkt: 'x'.repeat(43) })],
    sessions: [session(1), session(2)], currentSessionId: v('sessao1.id'),
    csrf: v('csrf'), now: NOW, limits: { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 }, notice: v('conta.aviso'),
    created: { token: v('token.segredo'), info: { ...token(v, 1), nome: v('token.criado') } },
    form: {
      values: { nome: v('form-token.nome'), escopos: ['conta', v('form-token.escopo')], dias: v('form-token.dias'), dpopJkt: v('form-token.dpop') },
      errors: { nome: v('form-token.erro-nome'), escopos: v('form-token.erro-escopos'), dias: v('form-token.erro-dias'), dpopJkt: v('form-token.erro-dpop') },
    },
  }
}

function accountSamples(v: ValueOf): Sample[] {
  return [
    page('conta', accountPage(accountView(v))),
    page('ativar', activationPage({ nome: v('ativar.nome'), email: v('ativar.email'), cliente: v('ativar.cliente'), error: v('ativar.erro') })),
    page('entrar', loginPage({ email: v('entrar.email'), error: v('entrar.erro'), notice: v('entrar.aviso') })),
    page('mensagem', messagePage(v('mensagem.titulo'), v('mensagem.texto'), { href: '/conta', label: v('mensagem.link') })),
  ]
}

export function pageSamples(v: ValueOf): Sample[] {
  return [...siteSamples(v), ...accountSamples(v)]
}

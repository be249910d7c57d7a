// The account page (/conta): the customer and the person, their tokens with the form that makes one (and the
// new token's secret, shown once), and their sessions. Every form carries the session's CSRF token.
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import { PAPEIS, scopesOf, type Papel, type Scope } from '../../credentials/index.ts'
import type { SessionInfo, SessionLimits } from '../../credentials/index.ts'
import { TOKEN_NAME_MAX, type TokenInfo } from '../../credentials/index.ts'
import type { Customer } from '../../credentials/index.ts'
import type { User } from '../../credentials/index.ts'
import { html, join, type Html } from '../../../platform/lib/html.ts'
import { ACCOUNT_PATHS } from './paths.ts'
import { randomUUID } from 'node:crypto'
import { TOKEN_FIELDS, TOKEN_KEY_FIELD, TOKEN_VALIDITY_DAYS, type TokenFormErrors, type TokenFormValues } from './token-form.ts'
import { CSRF_FIELD, errorSummary, hidden, inputField, notice, NO_AUTOCORRECT, type Page } from './view-parts.ts'

export type AccountView = {
  customer: Customer
  user: User
  tokens: TokenInfo[]
  sessions: SessionInfo[]
  /** The customer's people, this one included (who else has access; only the operator suspends one, for now). */
  people: User[]
  currentSessionId: string
  csrf: string
  now: Date
  limits: SessionLimits
  notice?: string | undefined
  /** The token just made: its secret is on this page and nowhere else, ever. */
  created?: { token: string, info: TokenInfo } | undefined
  form?: { values: TokenFormValues, errors: TokenFormErrors } | undefined
}

const SCOPE_TEXT: Record<Scope, string> = {
  conta: 'conta: ler a conta e a trilha de auditoria',
  tokens: 'tokens: listar e revogar os tokens da empresa',
  mcp: 'mcp: usar o servidor MCP',
  cadastro: 'cadastro: cedentes, sacados, condições de preço e feriados',
  operacoes: 'operacoes: operações, títulos, cotações e simulações; confirmação com o sacado e registro; pedir o desembolso',
  aprovacao: 'aprovacao: aprovar desembolsos (por outra pessoa que não quem pediu); dispensar a confirmação de um título',
  financeiro: 'financeiro: registrar pagamentos; razão e conta gráfica',
  cobranca: 'cobranca: contas de cobrança, boletos e arquivos CNAB',
  webhooks: 'webhooks: endereços que recebem os eventos, e o registro das entregas',
}

const ROLE_TEXT: Record<Papel, string> = {
  administrador: 'administrador: tudo, e as pessoas e os tokens da empresa',
  operador: 'operador: cadastros e operações',
  aprovador: 'aprovador: aprova desembolsos e lê tudo',
  consulta: 'consulta: só lê',
}

export function accountPage(v: AccountView): Page {
  const errors = v.form ? Object.values(v.form.errors) : []
  return {
    title: 'Pessoas e tokens',
    description: 'A conta da sua empresa: tokens de acesso à API e sessões.',
    body: html`<h1>Pessoas e tokens</h1>
${notice(v.notice)}${v.created && createdPanel(v.created)}${errorSummary(errors)}
<section aria-labelledby="titulo-quem">
<h2 id="titulo-quem">Empresa e acesso</h2>
<dl class="dados">
<dt>Empresa</dt><dd id="cliente-nome">${v.customer.nome}</dd>
<dt>Você</dt><dd id="usuario-nome">${v.user.nome}</dd>
<dt>E-mail</dt><dd id="usuario-email">${v.user.email}</dd>
<dt>Papel</dt><dd id="usuario-papel">${ROLE_TEXT[v.user.papel]}</dd>
</dl>
${postForm(ACCOUNT_PATHS.sair, v.csrf, html`<button type="submit" id="sair">Sair</button>`, 'form-sair')}
</section>
<section aria-labelledby="titulo-tokens">
<h2 id="titulo-tokens">Tokens de acesso à API</h2>
<p>Um token é a credencial de uma integração (um sistema da sua empresa, um agente) para chamar a API. Ele é mostrado uma única vez, ao ser criado.
Vinculado a uma chave (DPoP), só funciona com provas assinadas por ela.</p>
${tokensTable(v)}
<h3 id="titulo-criar">Criar um token</h3>
${tokenForm(v)}
</section>
<section aria-labelledby="titulo-pessoas">
<h2 id="titulo-pessoas">Pessoas da empresa</h2>
${peopleTable(v)}
</section>
<section aria-labelledby="titulo-sessoes">
<h2 id="titulo-sessoes">Sessões abertas</h2>
${sessionsTable(v)}
${postForm(ACCOUNT_PATHS.encerrarTodas, v.csrf, html`<button type="submit" id="sair-de-todos">Sair de todos os dispositivos</button>`, 'form-sair-de-todos')}
</section>`,
  }
}

function createdPanel(c: { token: string, info: TokenInfo }): Html {
  return html`<div id="token-criado" class="aviso aviso-ok" tabindex="-1">
<h2>Token “${c.info.nome}” criado: copie-o agora</h2>
<p>Esta é a única vez que ele aparece: guarde-o num cofre de senhas ou no gerenciador de segredos da integração. Perdeu? Revogue-o e crie outro.</p>
<p><code id="token-novo">${c.token}</code></p>
<p><button type="button" class="js-somente" id="copiar-token" data-copiar="token-novo" hidden>Copiar o token</button>
<span id="copia-estado" role="status"></span></p>
</div>
`
}

function tokensTable(v: AccountView): Html {
  if (!v.tokens.length) return html`<p id="sem-tokens">Nenhum token ainda.</p>`
  const rows = v.tokens.map((t) => {
    const state = t.revogadoEm ? 'revogado' : t.expiraEm.getTime() <= v.now.getTime() ? 'expirado' : 'ativo'
    const lastUse = t.ultimoUsoEm ? `${instantLabel(t.ultimoUsoEm)}${t.ultimoUsoIp ? ` (${t.ultimoUsoIp})` : ''}` : 'nunca usado'
    const action = state === 'ativo'
      ? postForm(ACCOUNT_PATHS.revogarToken, v.csrf, html`${hidden('token_id', t.id)}\
<button type="submit">Revogar<span class="visualmente-oculto"> o token ${t.nome}</span></button>`)
      : '—'
    return html`<tr data-token="${t.id}"><th scope="row">${t.nome}</th><td data-rotulo="Escopos">${t.escopos.join(', ')}</td>\
<td data-rotulo="Expira em">${instantLabel(t.expiraEm)}</td><td data-rotulo="Último uso">${lastUse}</td>\
<td data-rotulo="Vinculado (DPoP)">${t.dpopJkt ? 'sim' : 'não'}</td><td data-rotulo="Situação">${state}</td>\
<td data-rotulo="Ação">${action}</td></tr>`
  })
  return html`<table id="tokens" class="empilhavel">
<caption>Tokens da empresa (${v.tokens.length})</caption>
<thead><tr><th scope="col">Nome</th><th scope="col">Escopos</th><th scope="col">Expira em</th><th scope="col">Último uso</th>\
<th scope="col">Vinculado (DPoP)</th><th scope="col">Situação</th><th scope="col">Ação</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody>
</table>`
}

const NAME_HINT = `Para reconhecê-lo depois, por exemplo “ERP financeiro”; até ${TOKEN_NAME_MAX} caracteres.`
const JKT_HINT = 'Para vincular o token a uma chave: a impressão digital RFC 7638 (SHA-256, base64url, 43 caracteres) da chave pública. '
  + 'Vazio: token sem vínculo.'
const invalid = (error: string | undefined) => Boolean(error) && html` aria-invalid="true"`

function tokenForm(v: AccountView): Html {
  const values = v.form?.values ?? { nome: '', escopos: ['conta'], dias: '90', dpopJkt: '' }
  const errors = v.form?.errors ?? {}
  const scopeError = errors.escopos
  // Only what the person's role may put in a token (the store refuses the rest).
  const boxes = scopesOf(v.user.papel).map((s) => html`<div><input type="checkbox" id="escopo-${s}" name="${TOKEN_FIELDS.escopos}" value="${s}"\
${values.escopos.includes(s) && html` checked`}${Boolean(scopeError) && html` aria-describedby="erro-escopos"`}>\
 <label for="escopo-${s}">${SCOPE_TEXT[s]}</label></div>`)
  const options = TOKEN_VALIDITY_DAYS.map((d) => html`<option value="${d}"${String(d) === values.dias && html` selected`}>${d} dias</option>`)
  return html`<form id="form-token" method="post" action="${ACCOUNT_PATHS.criarToken}">
${hidden(CSRF_FIELD, v.csrf)}
${hidden(TOKEN_KEY_FIELD, randomUUID())}
${inputField({
  name: TOKEN_FIELDS.nome, label: 'Nome', hint: NAME_HINT, value: values.nome, error: errors.nome, required: true, extra: html` maxlength="${TOKEN_NAME_MAX}"`,
})}
<fieldset class="campo">
<legend>Escopos <span class="obrigatorio">(pelo menos um)</span></legend>
${join(boxes, '\n')}
<p class="erro" id="erro-escopos">${scopeError}</p>
</fieldset>
<div class="campo">
<label for="campo-${TOKEN_FIELDS.dias}">Validade</label>
<select id="campo-${TOKEN_FIELDS.dias}" name="${TOKEN_FIELDS.dias}" aria-describedby="erro-${TOKEN_FIELDS.dias}"${invalid(errors.dias)}>${options}</select>
<p class="erro" id="erro-${TOKEN_FIELDS.dias}">${errors.dias}</p>
</div>
${inputField({
  name: TOKEN_FIELDS.dpopJkt, label: 'Chave DPoP (opcional)', hint: JKT_HINT, value: values.dpopJkt, error: errors.dpopJkt,
  extra: html`${NO_AUTOCORRECT} maxlength="43"`,
})}
<p><button type="submit" id="criar-token">Criar token</button></p>
</form>`
}

function sessionsTable(v: AccountView): Html {
  const rows = v.sessions.map((s) => {
    const current = s.id === v.currentSessionId
    const action = current
      ? 'esta sessão'
      : postForm(ACCOUNT_PATHS.encerrarSessao, v.csrf, html`${hidden('sessao_id', s.id)}\
<button type="submit">Encerrar<span class="visualmente-oculto"> a sessão iniciada em ${instantLabel(s.criadaEm)}</span></button>`)
    return html`<tr data-sessao="${s.id}"${current && html` aria-current="true"`}><td data-rotulo="Iniciada em">${instantLabel(s.criadaEm)}</td>\
<td data-rotulo="Último acesso">${instantLabel(s.ultimoAcessoEm)}</td><td data-rotulo="Termina até">${instantLabel(s.expiraEm)}</td>\
<td data-rotulo="Ação">${action}</td></tr>`
  })
  return html`<table id="sessoes" class="empilhavel">
<caption>As suas sessões (${v.sessions.length})</caption>
<thead><tr><th scope="col">Iniciada em</th><th scope="col">Último acesso</th><th scope="col">Termina até</th><th scope="col">Ação</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody>
</table>
<p>Sem uso por ${duration(v.limits.idleMs)}, uma sessão termina sozinha; em uso, dura no máximo ${duration(v.limits.absoluteMs)}.</p>`
}

const PERSON_STATE: Record<User['estado'], string> = { convidado: 'convidada (ainda não ativou)', ativo: 'ativa', suspenso: 'suspensa' }

function peopleTable(v: AccountView): Html {
  const admin = v.user.papel === 'administrador'
  const rows = v.people.map((u) => html`<tr data-pessoa="${u.id}"${u.id === v.user.id && html` aria-current="true"`}>\
<th scope="row">${u.nome}</th><td data-rotulo="E-mail">${u.email}</td><td data-rotulo="Situação">${PERSON_STATE[u.estado]}</td>\
<td data-rotulo="Papel">${admin ? roleForm(v, u) : u.papel}</td></tr>`)
  return html`<table id="pessoas" class="empilhavel">
<caption>Quem tem acesso à conta da empresa (${v.people.length})</caption>
<thead><tr><th scope="col">Nome</th><th scope="col">E-mail</th><th scope="col">Situação</th><th scope="col">Papel</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody>
</table>
<p>Para suspender o acesso de alguém (quem saiu da empresa, por exemplo) ou reenviar um convite vencido, fale com o comercial:
a suspensão encerra as sessões da pessoa e desativa os tokens que ela criou na mesma hora.</p>`
}

/** An administrador's form that changes one person's role (takes effect at that person's next request). */
function roleForm(v: AccountView, u: User): Html {
  const options = PAPEIS.map((p) => html`<option value="${p}"${p === u.papel && html` selected`}>${ROLE_TEXT[p]}</option>`)
  return postForm(ACCOUNT_PATHS.papel, v.csrf, html`${hidden('usuario_id', u.id)}\
<label class="visualmente-oculto" for="papel-${u.id}">Papel de ${u.nome}</label>\
<select id="papel-${u.id}" name="papel">${options}</select> \
<button type="submit">Alterar<span class="visualmente-oculto"> o papel de ${u.nome}</span></button>`)
}

/** A form of buttons alone (sign out, revoke, end a session): `content` is its hidden fields and its button. */
function postForm(action: string, csrf: string, content: Html, id?: string): Html {
  return html`<form method="post" action="${action}" class="em-linha"${id && html` id="${id}"`}>${hidden(CSRF_FIELD, csrf)}${content}</form>`
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes % 60 !== 0) return minutes === 1 ? '1 minuto' : `${minutes} minutos`
  const hours = minutes / 60
  return hours === 1 ? '1 hora' : `${hours} horas`
}

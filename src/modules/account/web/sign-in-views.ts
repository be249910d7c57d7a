// The pages before a session exists: activating an invitation (choosing a password) and logging in.
import { PASSWORD_MAX_LENGTH } from '../../credentials/index.ts'
import { html } from '../../../platform/lib/html.ts'
import { PASSWORD_HINT } from './messages.ts'
import { ACCOUNT_PATHS } from './paths.ts'
import { errorSummary, inputField, NO_AUTOCORRECT, notice, type Page } from './view-parts.ts'

export type ActivationView = { nome: string, email: string, cliente: string, error?: string | undefined }

export function activationPage(v: ActivationView): Page {
  // No minlength: the server's refusal says why in words, where a browser's bubble would not name the rule.
  const lengths = html` maxlength="${PASSWORD_MAX_LENGTH}"`
  return {
    title: 'Ativar o acesso',
    description: 'Crie a senha do seu acesso à conta.',
    body: html`<h1>Ativar o acesso</h1>
<p>Olá, ${v.nome}. Crie a senha do seu acesso à conta de <strong>${v.cliente}</strong>. Depois disso, o link do convite deixa de valer.</p>
${errorSummary(v.error ? [v.error] : [])}
<form id="form-ativar" method="post" action="${ACCOUNT_PATHS.ativar}">
${inputField({ name: 'email', label: 'E-mail', type: 'email', value: v.email, autocomplete: 'username', extra: html` readonly` })}
${inputField({
  name: 'senha', label: 'Senha', type: 'password', hint: PASSWORD_HINT, error: v.error, autocomplete: 'new-password', required: true, extra: lengths,
})}
${inputField({ name: 'senha_confirmacao', label: 'Repita a senha', type: 'password', autocomplete: 'new-password', required: true, extra: lengths })}
<p><button type="submit" id="ativar">Ativar e entrar</button></p>
</form>`,
  }
}

export type LoginView = { email?: string, error?: string | undefined, notice?: string | undefined }

export function loginPage(v: LoginView = {}): Page {
  return {
    title: 'Entrar',
    description: 'Entre na conta da sua empresa na plataforma.',
    body: html`<h1>Entrar</h1>
<p>Acesso das pessoas das empresas clientes. O acesso é criado por convite, pelo canal comercial: <a href="/contato">fale conosco</a>.</p>
${notice(v.notice)}${errorSummary(v.error ? [v.error] : [])}
<form id="form-entrar" method="post" action="${ACCOUNT_PATHS.entrar}">
${inputField({
  name: 'email', label: 'E-mail', type: 'email', value: v.email ?? '', autocomplete: 'username', required: true,
  extra: NO_AUTOCORRECT,
})}
${inputField({ name: 'senha', label: 'Senha', type: 'password', autocomplete: 'current-password', required: true })}
<p><button type="submit" id="entrar">Entrar</button></p>
</form>`,
  }
}

// The e-mail a contact becomes. Every visitor-supplied value is cleaned of CR, LF and control characters
// before it reaches a header, and escaped before it reaches the HTML part.
import type Mail from 'nodemailer/lib/mailer/index.js'
import { instantLabel, TIME_ZONE_NOTE } from '../brasilia-time.ts'
import type { ContactFields } from '../contact/store.ts'
import { html } from '../html.ts'
import { headerSafe, textSafe } from './mime-safe.ts'

/** A stored contact as the e-mail shows it: its fields, and where and when it came from. */
export type ContactForMail = ContactFields & {
  protocolo: string
  criadoEm: Date
  assunto: string
  rotulo: string
  destino: string
  requestId: string
}

type OptionalField = 'empresa' | 'telefone' | 'site'

/** A ContactForMail from any source (a stored row, the CLI's test): optional fields absent or null read as empty. */
export function contactForMail(c: Omit<ContactForMail, OptionalField> & Partial<Record<OptionalField, string | null>>): ContactForMail {
  return {
    protocolo: c.protocolo, criadoEm: c.criadoEm, assunto: c.assunto, rotulo: c.rotulo, destino: c.destino, requestId: c.requestId,
    nome: c.nome, email: c.email, mensagem: c.mensagem, empresa: c.empresa ?? '', telefone: c.telefone ?? '', site: c.site ?? '',
  }
}

export function messageIdFor(protocolo: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost'
  return `<${protocolo.toLowerCase()}@${domain}>`
}

export function renderContactMail(c: ContactForMail, mailFrom: string): Mail.Options {
  const when = `${instantLabel(c.criadoEm)} (${TIME_ZONE_NOTE}) — ${c.criadoEm.toISOString()}`
  const fields: [string, string][] = [
    ['Protocolo', c.protocolo],
    ['Assunto', `${c.rotulo} (${c.assunto})`],
    ['Nome', c.nome],
    ['E-mail', c.email],
    ['Empresa', c.empresa],
    ['Telefone', c.telefone],
    ['Site', c.site],
    ['Recebido em', when],
    ['Request ID', c.requestId],
  ]
  const text = [
    ...fields.map(([k, v]) => `${k}: ${textSafe(v.replace(/[\r\n]+/g, ' ')) || '—'}`),
    '',
    'Mensagem:',
    textSafe(c.mensagem),
    '',
    '-- ',
    'Responda a este e-mail para falar diretamente com o remetente.',
  ].join('\n')
  const markup = html`<!doctype html><html lang="pt-BR"><body>
<table cellpadding="4">${fields.map(([k, v]) => html`<tr><th align="left">${textSafe(k)}</th><td>${textSafe(v) || '—'}</td></tr>`)}</table>
<h3>Mensagem</h3>
<div style="white-space: pre-wrap">${textSafe(c.mensagem)}</div>
<p><small>Responda a este e-mail para falar diretamente com o remetente.</small></p>
</body></html>`
  return {
    from: mailFrom,
    to: c.destino,
    replyTo: { name: headerSafe(c.nome, 120), address: headerSafe(c.email, 320) },
    subject: `[Contato] ${headerSafe(c.rotulo, 80)} — ${headerSafe(c.nome, 120)} (${c.protocolo})`,
    messageId: messageIdFor(c.protocolo, mailFrom),
    date: c.criadoEm,
    headers: { 'X-Contato-Protocolo': c.protocolo, 'X-Request-ID': headerSafe(c.requestId, 128) },
    text,
    html: markup.toString(),
  }
}

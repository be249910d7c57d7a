// The e-mail a contact becomes, rendered when the contact is stored and queued with it (src/platform/outbox/enqueue.ts). Every
// visitor-supplied value is cleaned of CR, LF and control characters before it reaches a header, and escaped before
// it reaches the HTML part; the worker cleans the headers once more whatever the message.
import { instantLabel, TIME_ZONE_NOTE } from '../../platform/lib/brasilia-time.ts'
import type { RenderedMail } from '../../platform/outbox/enqueue.ts'
import { html } from '../../platform/lib/html.ts'
import { headerSafe, textSafe } from '../../platform/outbox/mime-safe.ts'
import type { ContactFields } from './store.ts'

/** A contact as the e-mail shows it: its fields, and where and when it came from. */
export type ContactForMail = ContactFields & {
  protocolo: string
  criadoEm: Date
  assunto: string
  rotulo: string
  requestId: string
}

export function renderContactMail(c: ContactForMail): RenderedMail {
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
    subject: `[Contato] ${headerSafe(c.rotulo, 80)} — ${headerSafe(c.nome, 120)} (${c.protocolo})`,
    text,
    html: markup.toString(),
    // Answering the e-mail answers the visitor.
    headers: {
      replyTo: { name: headerSafe(c.nome, 120), address: headerSafe(c.email, 320) },
      extra: { 'X-Contato-Protocolo': c.protocolo },
    },
  }
}

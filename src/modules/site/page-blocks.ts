// The components of the /docs and /privacidade pages that come from configuration and code rather than from
// their Markdown sources: the rate limits, a live 422 example, the reference, the mailboxes.
import type { Config } from '../../platform/config.ts'
import { CONTACT_API_PATH } from '../contact/index.ts'
import type { ContactService } from '../contact/index.ts'
import type { Subject } from '../contact/index.ts'
import type { Block } from './content.ts'
import { cell, code, markdownToHtml } from './markdown.ts'

export function block(markdown: string): Block {
  return { markdown, html: markdownToHtml(markdown) }
}

export function limitsMarkdown(limits: Config['rateLimits']): string {
  const { leitura, contato, restrito, confirmacao } = limits
  const per = (b: { max: number, windowSeconds: number }) => `${b.max} por ${windowWords(b.windowSeconds)}`
  return [
    '| Onde | Limite por IP |', '|---|---|',
    `| Leituras e sondas (${code('GET')} dos endpoints públicos) | ${per(leitura)}, por endpoint |`,
    `| Formulário de contato (${code(`POST ${CONTACT_API_PATH}`)}, e o formulário do site) | ${per(contato)} |`,
    `| Respostas 401 sob ${code('/api')}, somadas em todos os caminhos | ${per(restrito)} |`,
    `| Página de confirmação de título do sacado (${code('/confirmacao/…')}), lida e respondida | ${per(confirmacao)} |`,
    '',
  ].join('\n')
}

function windowWords(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} segundos`
  return `${seconds / 60} minuto${seconds === 60 ? '' : 's'}`
}

/** The 422 a short, wrong body gets, computed by the API's own validation so the page never goes stale. */
export function example422(contact: Pick<ContactService, 'validate'>): string {
  const sample = { nome: 'M', email: 'maria@empresa', mensagem: 'Olá' }
  const checked = contact.validate(sample)
  const detail = checked.ok ? [] : checked.errors
  return [
    `Por exemplo, o corpo ${code(JSON.stringify(sample))} recebe:`, '',
    '```json', `{"detail": [\n${detail.map((d) => `  ${JSON.stringify(d)}`).join(',\n')}\n]}`, '```', '',
  ].join('\n')
}

export function mailboxesMarkdown(subjects: Subject[]): string {
  return ['| Assunto escolhido | Caixa que recebe |', '|---|---|', ...subjects.map((s) => `| ${cell(s.rotulo)} | ${cell(s.email)} |`), ''].join('\n')
}

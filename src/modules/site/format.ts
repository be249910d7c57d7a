// Words and formats the website shows, shared by the server (HTML and Markdown pages) and the browser code
// (src/modules/site/client/site.ts, bundled from this same file), so a page and its live refresh never disagree.
// Nothing here may import Node modules: it runs in the browser too (type imports are erased from the bundle).
import { instantLabel, TIME_ZONE_NOTE } from '../../platform/lib/brasilia-time.ts'
import { PAGE_TEXT } from '../../platform/http/problem-catalogue.ts'
import type { ManutencaoOutT, StatusOutT } from '../status/index.ts'

export { instantLabel, TIME_ZONE_NOTE }

/** The contact form's fields, in the order the form shows them (and the 422 lists them). */
export const FIELD_ORDER = ['nome', 'email', 'assunto', 'empresa', 'telefone', 'site', 'mensagem'] as const
export type FieldName = (typeof FIELD_ORDER)[number]

export const FIELD_LABELS: Record<FieldName, string> = {
  nome: 'Nome',
  email: 'E-mail',
  assunto: 'Assunto',
  empresa: 'Empresa',
  telefone: 'Telefone',
  site: 'Site da empresa',
  mensagem: 'Mensagem',
}

/** One item of a FastAPI-shaped 422, as much of it as the messages need. */
export type FieldError = { type: string, loc: (string | number)[], ctx?: Record<string, unknown> }

/** A 422 item in the visitor's words (pt-BR), from its stable `type` and `ctx`, never from the English `msg`. */
export function fieldMessage(item: FieldError): string {
  const ctx = item.ctx ?? {}
  switch (item.type) {
    case 'missing': return 'Preencha este campo.'
    case 'string_too_short': return `Use pelo menos ${String(ctx.min_length)} caracteres.`
    case 'string_too_long': return `Use no máximo ${String(ctx.max_length)} caracteres.`
    case 'value_error': return item.loc[1] === 'email' ? 'Informe um e-mail válido, como nome@empresa.com.br.' : 'Valor inválido.'
    default: return 'Valor inválido.'
  }
}

/** The field a 422 item is about, when it is one of the form's fields. */
export function fieldOf(item: FieldError): FieldName | undefined {
  const name = item.loc[0] === 'body' ? item.loc[1] : undefined
  return (FIELD_ORDER as readonly unknown[]).includes(name) ? name as FieldName : undefined
}

/** Said when an error points at no field of the form (a body that could not be read as one). */
export const UNREADABLE_FORM = 'O envio não pôde ser lido como um formulário. Preencha os campos e envie de novo.'

/**
 * The 422 items as the form shows them, in the server page and in the browser alike: one message per
 * field (the first), in the form's order, and the items about no field apart.
 */
export function errorsByField(errors: FieldError[]): { fields: Map<FieldName, string>, general: string[] } {
  const fields = new Map<FieldName, string>()
  const general: string[] = []
  for (const e of errors) {
    const f = fieldOf(e)
    if (!f) general.push(UNREADABLE_FORM)
    else if (!fields.has(f)) fields.set(f, fieldMessage(e))
  }
  return { fields: new Map(FIELD_ORDER.filter((f) => fields.has(f)).map((f) => [f, fields.get(f)!])), general }
}

export function tooManyRequests(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return 'Muitas mensagens enviadas em pouco tempo. Aguarde alguns minutos e tente de novo.'
  return `Muitas mensagens enviadas em pouco tempo. Tente de novo em ${waitWords(seconds)}.`
}

export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} segundo${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} minuto${minutes === 1 ? '' : 's'} (${seconds} segundos)`
}

export const UNAVAILABLE = PAGE_TEXT[503]![1]

// Status page -------------------------------------------------------------------------------------------

export const SERVICE_LABELS: Record<string, string> = {
  api: 'API pública',
  banco: 'Banco de dados',
  email: 'Envio de e-mail',
  limites: 'Limites de requisições',
}

export const STATUS_LABELS: Record<string, string> = {
  operacional: 'Operacional',
  degradado: 'Degradado',
  indisponivel: 'Indisponível',
  manutencao: 'Em manutenção',
}

export const MODE_LABELS: Record<string, string> = {
  postgres: 'PostgreSQL',
  pglite: 'PGlite (embutido)',
  smtp: 'SMTP',
  sandbox: 'sandbox (não envia)',
  memoria: 'memória',
  redis: 'Redis',
}

/** The status table's columns (the browser code rebuilds its rows with the same labels). */
export const STATUS_COLUMNS = ['Serviço', 'Situação', 'Latência', 'Modo'] as const

export const serviceLabel = (nome: string) => SERVICE_LABELS[nome] ?? nome
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status
export const okLabel = (ok: boolean) => (ok ? 'ok' : 'com falha')
export const modeLabel = (modo: string | null | undefined) => (modo ? MODE_LABELS[modo] ?? modo : '—')

export function latencyLabel(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  return ms < 10 ? `${ms.toFixed(1).replace('.', ',')} ms` : `${Math.round(ms)} ms`
}

/** The maintenance banner's sentence, or null when no window is declared. */
export function maintenanceText(m: ManutencaoOutT | null): string | null {
  if (!m) return null
  const what = m.mensagem?.trim() || 'Manutenção programada'
  const from = m.inicio ? instantLabel(m.inicio) : null
  const to = m.fim ? instantLabel(m.fim) : null
  if (m.em_curso) {
    return `Manutenção em andamento: ${what}. ${to ? `Previsão de término: ${to} (${TIME_ZONE_NOTE}).` : 'Sem previsão de término.'}`
  }
  const when = from && to ? `de ${from} a ${to}` : from ? `a partir de ${from}` : to ? `até ${to}` : 'em data a definir'
  return `Manutenção programada ${when} (${TIME_ZONE_NOTE}): ${what}.`
}

export function statusSummary(s: StatusOutT): string {
  return `Estado geral: ${statusLabel(s.status)}`
}

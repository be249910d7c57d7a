// The API reference, rendered on the server from the OpenAPI document that /openapi.json serves: every
// operation with its request and responses, then every named schema. Markdown first; the HTML is that
// Markdown rendered, so the page and its Markdown twin cannot differ. No client-side renderer, no CDN.
import { code, escapeMarkdown } from './markdown.ts'

type Schema = {
  $ref?: string
  type?: string | string[]
  format?: string
  description?: string
  title?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  enum?: unknown[]
  default?: unknown
  examples?: unknown[]
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  additionalProperties?: boolean | Schema
}
type Media = { schema?: Schema }
type Response = { description?: string, content?: Record<string, Media>, headers?: Record<string, { description?: string }> }
type Operation = {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  requestBody?: { required?: boolean, content?: Record<string, Media> }
  responses?: Record<string, Response>
  parameters?: { name: string, in: string, required?: boolean, description?: string, schema?: Schema }[]
}
export type OpenApiDocument = {
  openapi?: string
  info?: { title?: string, version?: string, description?: string }
  servers?: { url: string, description?: string }[]
  tags?: { name: string, description?: string }[]
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options']

const STATUS_WORDS: Record<string, string> = {
  200: 'OK', 201: 'Criado', 202: 'Aceito', 204: 'Sem conteúdo', 400: 'Requisição inválida', 401: 'Não autenticado',
  404: 'Não encontrado', 405: 'Método não permitido', 413: 'Corpo muito grande', 422: 'Erro de validação',
  429: 'Limite de requisições', 500: 'Erro interno', 503: 'Serviço indisponível',
}

const refName = (ref: string) => ref.split('/').pop() ?? ref

/** OpenAPI descriptions are CommonMark already: kept as written, on one line, safe inside a table cell. */
const prose = (s: string) => s.replace(/\s*\r?\n\s*/g, ' ').replace(/\|/g, '\\|').trim()
const anchor = (name: string) => `#esquema-${name.toLowerCase()}`

/** A schema in a few words: `ContatoIn`, `string (date-time)`, `array of ServicoOut`, `ManutencaoOut or null`. */
export function typeWords(s: Schema | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'qualquer valor'
  if (s.$ref) return `[${refName(s.$ref)}](${anchor(refName(s.$ref))})`
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives) return alternatives.map(typeWords).join(' ou ')
  const types = [s.type ?? (s.properties ? 'object' : undefined)].flat().filter(Boolean) as string[]
  return types.map((t) => {
    if (t === 'array') return `lista de ${typeWords(s.items)}`
    if (t === 'object' && typeof s.additionalProperties === 'object' && !Object.keys(s.properties ?? {}).length) {
      return `objeto { "…": ${typeWords(s.additionalProperties)} }`
    }
    if (t === 'null') return 'null'
    return `${t}${s.format ? ` (${s.format})` : ''}`
  }).join(' ou ') || 'qualquer valor'
}

function constraints(s: Schema): string {
  const c: string[] = []
  if (s.minLength !== undefined && s.maxLength !== undefined) c.push(`${s.minLength} a ${s.maxLength} caracteres`)
  else if (s.minLength !== undefined) c.push(`mínimo ${s.minLength} caracteres`)
  else if (s.maxLength !== undefined) c.push(`máximo ${s.maxLength} caracteres`)
  if (s.minimum !== undefined) c.push(`mínimo ${s.minimum}`)
  if (s.maximum !== undefined) c.push(`máximo ${s.maximum}`)
  if (s.enum) c.push(`um de ${s.enum.map((v) => code(JSON.stringify(v))).join(', ')}`)
  if (s.default !== undefined) c.push(`padrão ${code(JSON.stringify(s.default))}`)
  if (s.examples?.length) c.push(`ex.: ${s.examples.map((v) => code(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`)
  return c.join('; ')
}

function fieldsTable(s: Schema): string[] {
  const props = Object.entries(s.properties ?? {})
  if (props.length === 0) {
    return [s.additionalProperties === false ? 'Objeto vazio.' : 'Objeto livre: campos não fixados pelo contrato.']
  }
  const required = new Set(s.required ?? [])
  const out = ['| Campo | Tipo | Obrigatório | Restrições | Descrição |', '|---|---|---|---|---|']
  for (const [name, p] of props) {
    out.push(`| ${code(name)} | ${typeWords(p)} | ${required.has(name) ? 'sim' : 'não'} | ${constraints(p) || '—'} | `
      + `${p.description ? prose(p.description) : '—'} |`)
  }
  return out
}

/** A body's schema: a link to a named one, or its fields when it is inline. */
function bodyLines(s: Schema | undefined): string[] {
  if (!s) return ['Sem corpo descrito.']
  if (s.$ref || s.anyOf || s.oneOf || s.type === 'array') return [`Corpo: ${typeWords(s)}.`]
  if (s.type === 'object' || s.properties) return [...(s.description ? [prose(s.description), ''] : []), ...fieldsTable(s)]
  return [`Corpo: ${typeWords(s)}.`]
}

export type Endpoint = { method: string, path: string, operation: Operation }

export function endpointsOf(doc: OpenApiDocument): Endpoint[] {
  const base = (doc.servers?.[0]?.url ?? '').replace(/\/$/, '')
  const out: Endpoint[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const operation = item[m]
      if (operation) out.push({ method: m.toUpperCase(), path: `${base}${path}`, operation })
    }
  }
  return out
}

export function referenceMarkdown(doc: OpenApiDocument): string {
  const out: string[] = []
  const endpoints = endpointsOf(doc)
  out.push(`Gerada do documento [OpenAPI ${escapeMarkdown(doc.openapi ?? '')}](/openapi.json) desta instância: ${escapeMarkdown(doc.info?.title ?? '')}, `
    + `versão do contrato ${code(doc.info?.version ?? '')}. `
    + `${endpoints.length} endpoints públicos, nenhum exige credencial. O texto descritivo de cada operação vem do próprio documento, em inglês.`, '')
  out.push('| Método | Caminho | Resumo |', '|---|---|---|')
  for (const e of endpoints) out.push(`| ${e.method} | [${code(e.path)}](#${opAnchor(e)}) | ${prose(e.operation.summary ?? '')} |`)
  out.push('')

  const tags = doc.tags?.length ? doc.tags : [{ name: '', description: '' }]
  const untagged = endpoints.filter((e) => !e.operation.tags?.length || !tags.some((t) => e.operation.tags!.includes(t.name)))
  const groups = tags.map((t) => ({ tag: t, items: endpoints.filter((e) => e.operation.tags?.includes(t.name)) }))
  if (untagged.length) groups.push({ tag: { name: 'outros', description: '' }, items: untagged })
  for (const { tag, items } of groups) {
    if (!items.length) continue
    out.push(`### Grupo ${code(tag.name || 'api')}`, '')
    if (tag.description) out.push(`${prose(tag.description)}.`, '')
    for (const e of items) out.push(...operationLines(e))
  }

  const schemas = Object.entries(doc.components?.schemas ?? {})
  if (schemas.length) {
    out.push('### Esquemas', '')
    for (const [name, s] of schemas) {
      out.push(`#### Esquema ${name}`, '')
      if (s.description) out.push(prose(s.description), '')
      out.push(...fieldsTable(s), '')
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n'
}

// Headings are slugged by the renderer: "GET /api/status" becomes "get-api-status".
function opAnchor(e: Endpoint): string {
  return `${e.method} ${e.path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

function operationLines(e: Endpoint): string[] {
  const op = e.operation
  const out = [`#### ${e.method} ${e.path}`, '']
  if (op.summary) out.push(`**${escapeMarkdown(op.summary)}.**${op.operationId ? ` Operação ${code(op.operationId)}.` : ''}`, '')
  if (op.description) out.push(prose(op.description), '')
  for (const p of op.parameters ?? []) {
    out.push(`- Parâmetro ${code(p.name)} (${p.in}${p.required ? ', obrigatório' : ''}): `
      + `${typeWords(p.schema)}${p.description ? `. ${prose(p.description)}` : ''}`)
  }
  if (op.requestBody) {
    const [type, media] = Object.entries(op.requestBody.content ?? {})[0] ?? ['', {}]
    out.push(`Requisição (${code(type)}${op.requestBody.required ? ', obrigatória' : ''}):`, '', ...bodyLines(media.schema), '')
  }
  out.push('Respostas:', '')
  for (const [status, r] of Object.entries(op.responses ?? {})) {
    const [type, media] = Object.entries(r.content ?? {})[0] ?? ['', {} as Media]
    const words = STATUS_WORDS[status] ?? ''
    const described = r.description && r.description !== 'Default Response' ? ` ${punctuated(prose(r.description))}` : ''
    const detail = media.schema?.properties?.detail
    const codes = detail?.examples?.length ? ` ${code('detail')}: ${detail.examples.map((v) => code(String(v))).join(', ')}.` : ''
    const body = media.schema && !detail ? ` ${type ? `${code(type)}: ` : ''}${inlineBody(media.schema, r.description)}` : ''
    out.push(`- **${status}** ${words}.${described}${codes}${body}`)
  }
  out.push('')
  return out
}

function inlineBody(s: Schema, said: string | undefined): string {
  const props = Object.entries(s.properties ?? {})
  if (props.length) return `objeto com ${props.map(([n, p]) => `${code(n)} (${typeWords(p)})`).join(', ')}.`
  if (s.type === 'object' && typeof s.additionalProperties !== 'object') {
    return `objeto JSON livre.${s.description && s.description !== said ? ` ${punctuated(prose(s.description))}` : ''}`
  }
  return `${typeWords(s)}.`
}

const punctuated = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`)

// What POST /api/site/contato must answer to a body, as pydantic behind FastAPI would: the oracle of the
// property tests (test/modules/contact/property.test.ts). Its rules are the contract's field table, python-email-validator's
// (via emailProblem) and FastAPI's reading of the content type.
import { emailProblem } from '../../src/platform/lib/email-address.ts'

export type Field = { name: string, required: boolean, min?: number, max?: number, email?: boolean }
// The contract's ContatoIn, in model order.
export const FIELDS: Field[] = [
  { name: 'nome', required: true, min: 2, max: 120 },
  { name: 'email', required: true, email: true },
  { name: 'assunto', required: false },
  { name: 'mensagem', required: true, min: 10, max: 4000 },
  { name: 'empresa', required: false, max: 140 },
  { name: 'telefone', required: false, max: 40 },
  { name: 'site', required: false, max: 200 },
]
export const FIELD_NAMES = FIELDS.map((f) => f.name)

// What Python's json module says, word for word (FastAPI passes it on in ctx.error).
export const PYTHON_JSON_ERRORS = [
  'Expecting value', 'Expecting property name enclosed in double quotes', "Expecting ',' delimiter", "Expecting ':' delimiter",
  'Extra data', 'Invalid control character at', 'Unterminated string starting at', 'Invalid \\escape', 'Invalid \\uXXXX escape',
]

export type Item = { type: string, loc: (string | number)[], msg: string, input?: unknown, ctx?: Record<string, unknown> }
export type Expected = { type: string, loc: (string | number)[], input: unknown }

/** The items pydantic reports for this parsed body, in model order (type, loc and input). */
export function expectedItems(body: unknown): Expected[] {
  if (body === null || body === undefined) return [{ type: 'missing', loc: ['body'], input: null }]
  // The server drops poisoning keys at every depth, so an array's echo is scrubbed too.
  if (typeof body !== 'object' || Array.isArray(body)) return [{ type: 'model_attributes_type', loc: ['body'], input: scrub(body) }]
  const sent = scrub(body) as Record<string, unknown>
  const items: Expected[] = []
  for (const { name, required, min = 0, max = Infinity, email } of FIELDS) {
    const loc = ['body', name]
    if (!Object.hasOwn(sent, name)) {
      if (required) items.push({ type: 'missing', loc, input: sent })
      continue
    }
    const value = sent[name]
    if (typeof value !== 'string') {
      items.push({ type: 'string_type', loc, input: value })
      continue
    }
    const length = [...value].length // pydantic counts code points
    if (length < min) items.push({ type: 'string_too_short', loc, input: value })
    else if (length > max) items.push({ type: 'string_too_long', loc, input: value })
    else if (email && emailProblem(value) !== null) items.push({ type: 'value_error', loc, input: value })
  }
  return items
}

/** The body as the server keeps it: prototype-poisoning keys dropped (secure-json-parse's rule). */
function scrub(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(scrub)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') continue
    if (k === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) continue
    Object.defineProperty(out, k, { value: scrub(v), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * FastAPI's rule: no (or an empty) content type, application/json or application/*+json is JSON; anything
 * else is bytes, a media type without exactly one slash included (Python's email.message reads it as text/plain).
 */
function readsAsJson(contentType: string | undefined): boolean {
  if (!contentType) return true
  const [type, subtype, ...more] = contentType.split(';')[0]!.trim().toLowerCase().split('/')
  return more.length === 0 && type === 'application' && subtype !== undefined && (subtype === 'json' || subtype.endsWith('+json'))
}

function jsonParses(text: string): { ok: true, value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\ufeff/, '')) }
  } catch {
    return { ok: false }
  }
}

/** What the answer to a body of this text and content type must be. */
export function expectedForText(text: string, contentType: string | undefined): Expected[] | 'json_invalid' {
  if (text === '') return [{ type: 'missing', loc: ['body'], input: null }]
  if (!readsAsJson(contentType)) return [{ type: 'model_attributes_type', loc: ['body'], input: text }]
  const parsed = jsonParses(text)
  return parsed.ok ? expectedItems(parsed.value) : 'json_invalid'
}

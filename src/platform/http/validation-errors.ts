// Request validation failures in FastAPI's shape (pydantic v2 `type`, `msg`, `loc`, `input`, `ctx`),
// so a client written against a FastAPI service reads our 422s unchanged.
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { emailProblem } from '../lib/email-address.ts'
import { AnswerError } from './answer-error.ts'
import { VALIDATION_STATUS } from './problem-catalogue.ts'
import type { ProblemAnswer } from './problem.ts'
import { formatTypeVerdict, formatVerdict, type FormatVerdict } from './pydantic-formats.ts'

type AddFormats = (ajv: Ajv) => unknown
// ajv-formats is CommonJS: loaded as ESM, the plugin may sit under `default`.
const addFormats: AddFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as AddFormats

/**
 * How request bodies are checked, by Fastify's validator and by ContactService alike: no coercion (pydantic
 * refuses 123 for a string), every error at once, defaults filled, unknown fields kept but ignored.
 * `validateSchema: false`: our own schemas are not checked against Ajv's meta-schema at each start (compiling
 * the meta-schema was a tenth of start-up); Ajv's strict mode still refuses unknown keywords, and the tests
 * compile every schema. `verbose`: an error carries the schema it failed, so a number where a UUID or a date is
 * expected is answered as pydantic answers for that type, not as for any string.
 */
export const AJV_OPTIONS = { coerceTypes: false, allErrors: true, useDefaults: true, removeAdditional: false, validateSchema: false, verbose: true } as const

/** The `email` format as pydantic's EmailStr judges it (Ajv's own format is looser). */
export function addEmailFormat(ajv: { addFormat(name: string, validate: (s: string) => boolean): unknown }): void {
  ajv.addFormat('email', (s: string) => emailProblem(s) === null)
}

export type ValidationItem = {
  type: string
  loc: (string | number)[]
  msg: string
  input: unknown
  ctx?: Record<string, unknown>
}

/**
 * Thrown (or passed to reply) to answer 422 in FastAPI's shape: `detail` is the list of items. An expected
 * answer, so without a stack (AnswerError): capturing one was about a tenth of a 422's CPU.
 */
export class RequestValidationError extends AnswerError implements ProblemAnswer {
  readonly statusCode = VALIDATION_STATUS
  readonly headers = {}
  readonly items: ValidationItem[]
  constructor(items: ValidationItem[]) {
    super('request validation failed')
    this.items = items
  }

  get body(): { detail: ValidationItem[] } { return { detail: this.items } }
}

// Ajv's useDefaults fills absent fields in place before errors are reported; `missing` items must show the
// body as the client sent it, as pydantic does.
const sentBodies = new WeakMap<object, object>()

/** Keeps a shallow copy of a parsed body, for the `input` of later `missing` items. */
export function rememberSentBody(body: object): void {
  sentBodies.set(body, Array.isArray(body) ? [...body] : { ...body })
}

/** The request part a schema checks, as Fastify names it in `validationContext`. */
export type ValidationPart = 'body' | 'querystring' | 'params' | 'headers'

/** The subset of an Ajv error we read (`parentSchema` with AJV_OPTIONS' `verbose`). */
export type AjvError = {
  instancePath: string
  keyword: string
  params: Record<string, unknown>
  parentSchema?: { format?: unknown }
}

const TYPE_ERRORS: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
}

const chars = (n: number) => `${n} character${n === 1 ? '' : 's'}`

/**
 * Maps Ajv errors on one request part (`body`, `query`…) to pydantic's items, ordered as `fieldOrder`
 * lists the fields (pydantic reports in model order; Ajv reports `required` first).
 */
export function fromAjv(errors: AjvError[], root: ValidationPart, input: unknown, fieldOrder: string[] = []): ValidationItem[] {
  const rootMissing = input === undefined || input === null
  const items: ValidationItem[] = []
  for (const e of collapseUnions(errors)) {
    const path = locOf(input, e.instancePath.split('/').slice(1).map(unescapePointer))
    if (path.length === 0 && e.keyword === 'type') {
      // The whole part is of the wrong kind: FastAPI says `missing` for no body at all.
      items.push(rootMissing
        ? { type: 'missing', loc: [root], msg: 'Field required', input: null }
        : { type: 'model_attributes_type', loc: [root], msg: 'Input should be a valid dictionary or object to extract fields from', input })
      continue
    }
    const value = valueAt(input, path)
    const formatted = e.keyword === 'format' && typeof value === 'string' ? formatVerdict(String(e.params.format), value) : undefined
    if (e.keyword === 'required') {
      const parent = valueAt(input, path)
      const sent = parent !== null && typeof parent === 'object' ? sentBodies.get(parent) ?? parent : parent
      items.push({ type: 'missing', loc: [root, ...path, String(e.params.missingProperty)], msg: 'Field required', input: sent })
    } else if (e.keyword === 'type') {
      const format = e.params.type === 'string' ? e.parentSchema?.format : undefined
      const verdict = typeof format === 'string' ? formatTypeVerdict(format, value) : undefined
      const [type, msg] = TYPE_ERRORS[String(e.params.type)] ?? ['value_error', `Input should be ${String(e.params.type)}`]
      items.push(verdict ? itemOf(verdict, [root, ...path], value) : { type, loc: [root, ...path], msg, input: value })
    } else if (e.keyword === 'minLength') {
      const n = Number(e.params.limit)
      items.push({ type: 'string_too_short', loc: [root, ...path], msg: `String should have at least ${chars(n)}`, input: value, ctx: { min_length: n } })
    } else if (e.keyword === 'maxLength') {
      const n = Number(e.params.limit)
      items.push({ type: 'string_too_long', loc: [root, ...path], msg: `String should have at most ${chars(n)}`, input: value, ctx: { max_length: n } })
    } else if (e.keyword === 'format' && e.params.format === 'email') {
      const reason = emailProblem(String(value)) ?? 'The email address is not valid.'
      items.push({ type: 'value_error', loc: [root, ...path], msg: `value is not a valid email address: ${reason}`, input: value, ctx: { reason } })
    } else if (formatted) {
      items.push(itemOf(formatted, [root, ...path], value))
    } else if (e.keyword === 'additionalProperties') {
      const field = String(e.params.additionalProperty)
      items.push({ type: 'extra_forbidden', loc: [root, ...path, field], msg: 'Extra inputs are not permitted', input: valueAt(input, [...path, field]) })
    } else if (e.keyword === 'pattern') {
      const pattern = String(e.params.pattern)
      items.push({ type: 'string_pattern_mismatch', loc: [root, ...path], msg: `String should match pattern '${pattern}'`, input: value, ctx: { pattern } })
    } else if (e.keyword === 'enum') {
      const expected = oneOfWords((e.params.allowedValues as unknown[] | undefined) ?? [])
      items.push({ type: 'literal_error', loc: [root, ...path], msg: `Input should be ${expected}`, input: value, ctx: { expected } })
    } else if (e.keyword in BOUNDS) {
      const [type, words, key] = BOUNDS[e.keyword]!
      const n = Number(e.params.limit)
      items.push({ type, loc: [root, ...path], msg: `Input should be ${words} ${n}`, input: value, ctx: { [key]: n } })
    } else if (e.keyword === 'minItems' || e.keyword === 'maxItems') {
      const n = Number(e.params.limit)
      const actual = Array.isArray(value) ? value.length : 0
      const [type, words, key] = e.keyword === 'minItems' ? ['too_short', 'at least', 'min_length'] : ['too_long', 'at most', 'max_length']
      items.push({ type, loc: [root, ...path], msg: `List should have ${words} ${n} item${n === 1 ? '' : 's'} after validation, not ${actual}`, input: value,
        ctx: { field_type: 'List', [key]: n, actual_length: actual } })
    } else {
      items.push({ type: 'value_error', loc: [root, ...path], msg: `Value error, invalid ${e.keyword}`, input: value })
    }
  }
  for (const item of items) item.input = bounded(item.input)
  const rank = (item: ValidationItem) => {
    const i = fieldOrder.indexOf(String(item.loc[1]))
    return i < 0 ? fieldOrder.length : i
  }
  return items.sort((a, b) => rank(a) - rank(b))
}

/**
 * The property names of a route's body schema in declaration order, for fromAjv's `fieldOrder`: read once
 * when the route is registered. A `$ref` (`'ContatoIn#'`) is looked up among the schemas added by then.
 */
export function schemaFieldOrder(schema: unknown, getSchema: (id: string) => unknown): string[] {
  const s = schema as { $ref?: unknown, properties?: object } | undefined
  const resolved = typeof s?.$ref === 'string' ? getSchema(s.$ref.replace(/#$/, '')) as { properties?: object } | undefined : s
  return Object.keys(resolved?.properties ?? {})
}

/** A format's verdict (pydantic-formats.ts) at its place, in pydantic's key order. */
function itemOf(v: FormatVerdict, loc: (string | number)[], input: unknown): ValidationItem {
  return { type: v.type, loc, msg: v.msg, input, ...(v.ctx ? { ctx: v.ctx } : {}) }
}

/** pydantic's names of the number bounds: [type, words, ctx key]. */
const BOUNDS: Record<string, [string, string, string]> = {
  minimum: ['greater_than_equal', 'greater than or equal to', 'ge'],
  maximum: ['less_than_equal', 'less than or equal to', 'le'],
  exclusiveMinimum: ['greater_than', 'greater than', 'gt'],
  exclusiveMaximum: ['less_than', 'less than', 'lt'],
}

/** `'a', 'b' or 'c'`, as pydantic lists what a literal may be. */
function oneOfWords(values: unknown[]): string {
  const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)))
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : shown[0] ?? ''
}

/**
 * A value that fails a union (a nullable field) is one item, as in pydantic, not one per branch and one for the
 * union: the union's own error goes, and so does the `null` branch's when another branch said what was wrong there.
 */
function collapseUnions(errors: AjvError[]): AjvError[] {
  const withReason = new Set(errors.filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null')).map((e) => e.instancePath))
  return errors.filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null' && withReason.has(e.instancePath)))
}

/** The path with an array's positions as numbers, as every other item gives them (`["body", "titulos", 0, "numero"]`). */
function locOf(input: unknown, path: string[]): (string | number)[] {
  const loc: (string | number)[] = []
  let v = input
  for (const key of path) {
    const index = Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(key)
    loc.push(index ? Number(key) : key)
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined
  }
  return loc
}

/**
 * The most of a value a 422 echoes: a body of a megabyte (the borderô routes take one) is not sent back whole (issue 31
 * item 17). The public routes take at most 64 KiB, so their answers stay exactly FastAPI's, which echoes all.
 */
const ECHO_MAX = 64 * 1024

function bounded(value: unknown): unknown {
  if (typeof value === 'string') return value.length > ECHO_MAX ? `${value.slice(0, ECHO_MAX)}…` : value
  if (value === null || typeof value !== 'object') return value
  const size = JSON.stringify(value)?.length ?? 0
  return size > ECHO_MAX ? `(${size} characters, not echoed)` : value
}

function valueAt(input: unknown, path: (string | number)[]): unknown {
  let v = input
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined
    v = (v as Record<string, unknown>)[key]
  }
  return v
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~')
}

/**
 * Fastify's `schemaErrorFormatter`: the error a schema failure travels in to the error handler, which reads
 * its `validation` (set by Fastify) and answers the 422 (problemOf); no message is built from the items.
 */
export function schemaFailure(): Error {
  return new AnswerError('request validation failed')
}

export type Checked<T> = { ok: true, value: T } | { ok: false, errors: ValidationItem[] }

/**
 * Every string of `value` (at any depth) holding NUL, which PostgreSQL's text cannot store: each a 422 item at its own
 * place, so the client learns which field, where the database would have answered a 500.
 */
export function nulItems(value: unknown, loc: (string | number)[] = ['body']): ValidationItem[] {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? [{ type: 'string_nul', loc, msg: 'String should not contain the NUL character (U+0000)', input: value }]
      : []
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => nulItems(v, [...loc, i]))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nulItems(v, [...loc, k]))
  return []
}

/**
 * A schema's check outside a route (the contact service's, the MCP tools' arguments), as Fastify's validator
 * checks a body: compiled on its first call, not at start. The input is checked as a shallow copy, so the
 * defaults Ajv fills in never land on the caller's object; the items report what was sent.
 */
export function makeCheck<T>(schema: object): (input: unknown) => Checked<T> {
  let compiled: ValidateFunction | undefined
  const order = Object.keys((schema as { properties?: object }).properties ?? {})
  return (input) => {
    if (!compiled) {
      const ajv = new Ajv({ ...AJV_OPTIONS })
      // The formats Fastify's own compiler knows (uuid, date, date-time…), so a schema checks the same here as on a route.
      addFormats(ajv)
      addEmailFormat(ajv)
      compiled = ajv.compile(schema)
    }
    const copy = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...input } : input
    if (compiled(copy)) return { ok: true, value: copy as T }
    return { ok: false, errors: fromAjv((compiled.errors ?? []) as AjvError[], 'body', input, order) }
  }
}

// One body parser for every content type, so that malformed JSON, an empty body, a non-JSON body and
// prototype-poisoning keys all become FastAPI-shaped 422s instead of Fastify's 400/415 answers.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import sjson from 'secure-json-parse'
import { problem } from './problem.ts'
import type { RequestGuard } from './request-guards.ts'
import { nulItems, rememberSentBody, RequestValidationError } from './validation-errors.ts'

/** A body that was not JSON (a form post, plain text): kept as text for the handler or the 422. */
export class NonJsonBody {
  readonly contentType: string
  readonly text: string
  constructor(contentType: string, text: string) {
    this.contentType = contentType
    this.text = text
  }
}

/**
 * Fastify answers 415 to a content type it cannot parse before any parser runs. FastAPI reads an empty
 * one as JSON and any other malformed one as text (Python's email.message falls back to text/plain).
 */
export const normalizeContentType: RequestGuard = (req) => {
  const contentType = req.headers['content-type']
  if (contentType !== undefined && !FASTIFY_MEDIA_TYPE.test(contentType.split(';')[0]!)) {
    if (contentType === '') delete req.headers['content-type']
    else req.headers['content-type'] = isJson(contentType) ? 'application/json' : 'text/plain'
  }
  return undefined
}

/** The parser for every content type; normalizeContentType must run on arrival (a request guard). */
export const bodyParser = fp(async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    try {
      done(null, parseBody(req.headers['content-type'], body as string))
    } catch (err) {
      done(err as Error, undefined)
    }
  })
  // A body schema cannot describe a form post or plain text: FastAPI answers them with this 422.
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    if (req.body instanceof NonJsonBody && req.routeOptions.schema?.body) {
      return done(new RequestValidationError([{
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: req.body.text,
      }]))
    }
    // A customer's route stores what it is sent: text PostgreSQL cannot hold is refused on its field. (The contact
    // form, public, keeps its own rule: it takes the message and drops the NUL.)
    if (req.routeOptions.config.credencial && req.routeOptions.schema?.body) {
      const nul = nulItems(req.body)
      if (nul.length) return done(new RequestValidationError(nul))
    }
    done()
  })
}, { name: 'body-parser' })

/** The media types Fastify accepts (lib/content-type.js); parameters after `;` are not checked. */
const FASTIFY_MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*$/

// FastAPI's rule, through Python's email.message: no content type is JSON, so is application/json or
// application/*+json; a media type without exactly one slash counts as text/plain.
function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true
  const parts = contentType.split(';')[0]!.trim().toLowerCase().split('/')
  return parts.length === 2 && parts[0] === 'application' && (parts[1] === 'json' || parts[1]!.endsWith('+json'))
}

export function parseBody(contentType: string | undefined, text: string): unknown {
  // FastAPI reads an empty body as no body, whatever its type; whitespace alone is a body (and bad JSON).
  if (text === '') return undefined // a required body then fails as `missing` at ["body"]
  if (!isJson(contentType)) return new NonJsonBody(contentType ?? '', text)
  let body: unknown
  try {
    // Poisoning keys are dropped rather than refused: unknown fields are ignored anyway.
    body = sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' })
  } catch {
    const [pos, error] = pythonJsonError(text) ?? [0, 'Expecting value']
    throw new RequestValidationError([{ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } }])
  }
  // Python's json gives up below a thousand levels (FastAPI answers 400), and a 422 could not echo such a
  // value back: serializing it overflows the stack.
  if (text.length > 2 * MAX_DEPTH && nestingDepth(text) > MAX_DEPTH) throw problem('requisicao_invalida')
  if (body !== null && typeof body === 'object') rememberSentBody(body)
  return body
}

const MAX_DEPTH = 512

/** The deepest nesting of arrays and objects in valid JSON text. */
function nestingDepth(text: string): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '[' || c === '{') {
      max = Math.max(max, ++depth)
    } else if (c === ']' || c === '}') {
      depth--
    }
  }
  return max
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y
const ESCAPES = '"\\/bfnrt'

/**
 * Where and why Python's json module (FastAPI's parser) rejects `text`, or null where it would not: V8's
 * messages often carry no position and name errors differently. The position counts code points, as a
 * Python string index does. NaN and Infinity, which Python alone accepts, are refused as V8 refuses them.
 * Iterative, so that deep nesting cannot overflow the stack.
 */
function pythonJsonError(text: string): [number, string] | null {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1) // Python decodes the bytes as utf-8-sig
  const n = text.length
  let i = 0
  const at = (pos: number, msg: string): [number, string] => [[...text.slice(0, pos)].length, msg]
  const skip = () => { while (i < n && ' \t\n\r'.includes(text[i]!)) i++ }
  const string = (): [number, string] | null => {
    const begin = i
    for (i++; ; i++) {
      while (i < n && text[i] !== '"' && text[i] !== '\\') {
        if (text.charCodeAt(i) < 0x20) return at(i, 'Invalid control character at')
        i++
      }
      if (i >= n) return at(begin, 'Unterminated string starting at')
      if (text[i] === '"') { i++; return null }
      if (++i >= n) return at(begin, 'Unterminated string starting at')
      if (text[i] === 'u') {
        if (i + 5 >= n || !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) return at(i, 'Invalid \\uXXXX escape')
        i += 4
      } else if (!ESCAPES.includes(text[i]!)) {
        return at(i - 1, 'Invalid \\escape')
      }
    }
  }
  const key = (): [number, string] | null => {
    if (text[i] !== '"') return at(i, 'Expecting property name enclosed in double quotes')
    const err = string()
    if (err) return err
    skip()
    if (text[i] !== ':') return at(i, "Expecting ':' delimiter")
    i++
    skip()
    return null
  }
  const open: string[] = []
  skip()
  for (;;) {
    // A value starts at i.
    const c = text[i]
    if (c === '{' || c === '[') {
      i++
      skip()
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++
      } else {
        open.push(c)
        const err = c === '{' ? key() : null
        if (err) return err
        continue
      }
    } else if (c === '"') {
      const err = string()
      if (err) return err
    } else {
      const literal = ['null', 'true', 'false'].find((l) => text.startsWith(l, i))
      NUMBER.lastIndex = i
      if (literal) i += literal.length
      else if (NUMBER.test(text)) i = NUMBER.lastIndex
      else return at(i, 'Expecting value')
    }
    // After a value: close what it ends, or expect the next one.
    for (;;) {
      skip()
      const container = open.at(-1)
      if (!container) return i === n ? null : at(i, 'Extra data')
      if (text[i] === (container === '{' ? '}' : ']')) {
        open.pop()
        i++
        continue
      }
      if (text[i] !== ',') return at(i, "Expecting ',' delimiter")
      i++
      skip()
      const err = container === '{' ? key() : null
      if (err) return err
      break
    }
  }
}

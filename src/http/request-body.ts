// One body parser for every content type, so that malformed JSON, an empty body, a non-JSON body and
// prototype-poisoning keys all become FastAPI-shaped 422s instead of Fastify's 400/415 answers.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import sjson from 'secure-json-parse'
import { RequestValidationError } from './validation-errors.ts'

/** A body that was not JSON (a form post, plain text): kept as text for the handler or the 422. */
export class NonJsonBody {
  constructor(readonly contentType: string, readonly text: string) {}
}

export function registerBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    try {
      done(null, parseBody(req.headers['content-type'], body as string))
    } catch (err) {
      done(err as Error, undefined)
    }
  })
  // A body schema cannot describe a form post or plain text: FastAPI answers them with this 422.
  app.addHook('preValidation', async (req: FastifyRequest) => {
    if (req.body instanceof NonJsonBody && req.routeOptions.schema?.body) {
      throw new RequestValidationError([{
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: req.body.text,
      }])
    }
  })
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true // FastAPI reads a body without a content type as JSON
  const media = contentType.split(';')[0]!.trim().toLowerCase()
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'))
}

export function parseBody(contentType: string | undefined, text: string): unknown {
  if (!isJson(contentType)) return new NonJsonBody(contentType ?? '', text)
  if (text.trim() === '') return undefined // a required body then fails as `missing` at ["body"]
  try {
    // Poisoning keys are dropped rather than refused: unknown fields are ignored anyway.
    return sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' })
  } catch (err) {
    const [pos, error] = pythonJsonError(text, (err as Error).message)
    throw new RequestValidationError([{ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } }])
  }
}

// Python's json module names its errors differently from V8; FastAPI reports Python's words.
function pythonJsonError(text: string, message: string): [number, string] {
  const at = /position (\d+)/.exec(message)
  const pos = at ? Number(at[1]) : /end of JSON/.test(message) ? text.length : 0
  const rules: [RegExp, string][] = [
    [/Expected property name/, 'Expecting property name enclosed in double quotes'],
    [/Expected ',' or '[}\]]'/, "Expecting ',' delimiter"],
    [/Expected ':'/, "Expecting ':' delimiter"],
    [/non-whitespace character after JSON/, 'Extra data'],
    [/Bad control character/, 'Invalid control character at'],
    [/Unterminated string/, 'Unterminated string starting at'],
  ]
  return [pos, rules.find(([re]) => re.test(message))?.[1] ?? 'Expecting value']
}

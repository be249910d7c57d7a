// What any answer may be: never a 5xx; under /api, a status the contract (or the documented errors) allows for
// that path and method, with the body shape the published OpenAPI document gives. Returns what is wrong, or null.
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { RawResponse } from '../helpers/raw-http.ts'
import { API_PATHS } from './requests.ts'

type Validate = ((data: unknown) => boolean) & { errors?: unknown }
type OpenApi = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> }

export type Contract = (method: string, target: string, res: RawResponse) => string | null

/** Errors any /api request may get besides its endpoint's own answers (documented in /docs and the README). */
const GENERIC = new Set([400, 401, 405, 408, 413, 429, 431])

/** The 401s of the credential layer: none presented, or one refused (a random Authorization header is one). */
const REFUSED = new Set(['nao_autenticado', 'token_invalido', 'dpop_obrigatorio', 'dpop_invalido', 'dpop_nonce_obrigatorio'])

export function contractFrom(doc: OpenApi): Contract {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  ajv.addSchema({ ...doc, $id: 'openapi' })
  const validators = new Map<string, Validate>()
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, res] of Object.entries(op.responses)) {
        if (!res.content?.['application/json']) continue
        const pointer = `openapi#/paths/${path.replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`
        validators.set(`${method.toUpperCase()} /api${path} ${status}`, ajv.compile({ $ref: pointer }) as Validate)
      }
    }
  }

  return (method, target, res) => {
    if (res.status >= 500) return `${res.status} ${res.body.toString().slice(0, 200)}`
    if (!isApi(target)) return null
    const route = routeOf(target)
    const head = method === 'HEAD'
    let json: unknown
    if (!head && res.status !== 204) {
      if (!/^application\/json/.test(res.headers['content-type'] ?? '')) return `${res.status} with content-type ${res.headers['content-type']}`
      try {
        json = JSON.parse(res.body.toString('utf8'))
      } catch {
        return `${res.status} with a body that is not JSON`
      }
    }
    const own = route && validators.get(`${head ? 'GET' : method} ${route} ${res.status}`)
    if (res.status === 204) return method === 'OPTIONS' ? null : `204 to ${method}`
    if (res.status < 300 && !own) return `${res.status} to ${method} ${target}: not a documented success of a public endpoint`
    if (own && !head && !own(json)) return `${res.status} body against the OpenAPI schema: ${JSON.stringify(own.errors).slice(0, 300)}`
    if (own && (res.status < 400 || res.status === 422)) return null
    if (res.status === 422) return `422 outside POST /api/site/contato`
    if (!own && !GENERIC.has(res.status)) return `${res.status} is not a status of the /api contract`
    if (head) return null
    const detail = (json as { detail?: unknown } | null)?.detail
    if (typeof detail !== 'string' || Object.keys(json as object).length !== 1) {
      return `${res.status} body is not {"detail": code}: ${JSON.stringify(json).slice(0, 200)}`
    }
    if (res.status === 401 && (!REFUSED.has(detail) || !res.headers['www-authenticate'])) return '401 without a credential refusal and WWW-Authenticate'
    if (res.status === 405 && !res.headers.allow) return '405 without Allow'
    if (res.status === 429 && !/^\d+$/.test(res.headers['retry-after'] ?? '')) return '429 without Retry-After in seconds'
    return null
  }
}

function isApi(target: string): boolean {
  return target === '/api' || target.startsWith('/api/') || target.startsWith('/api?')
}

/** The public endpoint a target reaches through the router (which decodes the path), if any. */
function routeOf(target: string): string | undefined {
  let path = target.split('?')[0]!.split('#')[0]!.split(';')[0]!
  try {
    path = decodeURI(path)
  } catch {
    return undefined
  }
  path = path.length > 1 ? path.replace(/\/$/, '') : path
  return API_PATHS.includes(path) ? path : undefined
}

// The back office is a client of the customers' API, called in process: each page reads, and each form posts,
// through the same routes an integration calls, as the person whose session cookie the browser sent. So the
// back office has no rule of its own to keep in step (validation, roles, limits, idempotency, audit), and what
// a page shows is what the API answers. The page's checks (this site's Origin, the form's CSRF token) are made
// before; the inner request then carries what the API's session check asks of a page of this site.
import type { FastifyInstance, FastifyRequest } from 'fastify'

export type ApiAnswer = { status: number, body: unknown }

export type Api = {
  get(url: string): Promise<ApiAnswer>
  /**
   * A change; `key` is the form's Idempotency-Key (a form posted twice makes one change), `csrf` the form's own
   * token, checked by the page already and again by the API.
   */
  send(method: 'POST' | 'PATCH' | 'DELETE', url: string, body: object | undefined, key: string | undefined, csrf: string): Promise<ApiAnswer>
  /** A file as the request's body, with its type (a form's upload: the signed term put, a bank's retorno posted). */
  upload(method: 'PUT' | 'POST', url: string, bytes: Buffer, contentType: string, csrf: string): Promise<ApiAnswer>
}

/** `session`: the session cookie as the browser sent it (`name=value`), and nothing else of its cookies. */
export function apiFor(app: FastifyInstance, req: FastifyRequest, session: string): Api {
  const headers = (): Record<string, string> => ({
    accept: 'application/json',
    cookie: session,
    // In process, from this site's own page (checked already): what a browser's same-origin fetch would say.
    'sec-fetch-site': 'same-origin',
    // The audit row of a change keeps the page's request id beside its own.
    'x-request-id': req.id,
    ...(req.headers['user-agent'] ? { 'user-agent': req.headers['user-agent'] } : {}),
  })
  const call = async (method: string, url: string, extra: Record<string, string>, payload?: object | Buffer): Promise<ApiAnswer> => {
    const res = await app.inject({
      method: method as 'GET', url, remoteAddress: req.ip, headers: { ...headers(), ...extra },
      ...(payload ? { payload } : {}),
    })
    const json = /^application\/(problem\+)?json/.test(String(res.headers['content-type'] ?? ''))
    return { status: res.statusCode, body: json ? res.json() : null }
  }
  return {
    get: (url) => call('GET', url, {}),
    send: (method, url, body, key, csrf) => call(method, url, {
      'x-csrf-token': csrf,
      ...(key ? { 'idempotency-key': key } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    }, body),
    upload: (method, url, bytes, contentType, csrf) => call(method, url, { 'x-csrf-token': csrf, 'content-type': contentType }, bytes),
  }
}

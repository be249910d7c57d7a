// Cross-origin reads of the public GET endpoints from anywhere (status widgets on other sites);
// cross-origin contact posts only from SITE_ORIGINS; the rest of /api from anywhere with a token in
// Authorization (a browser app holding its DPoP key), never with cookies: `*` forbids credentialed requests,
// so a browser neither sends the site's session cookie on them nor lets a page read what one would answer.
//
// The headers are computed once at start: this policy is three fixed answers, and @fastify/cors rebuilt its
// options on every request (about a tenth of the CPU of GET /api/health). See docs/decisions.md.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export const PUBLIC_READS = ['/api/health', '/api/health/ready', '/api/version', '/api/status', '/api/site/contato/assuntos', '/api/site/contato/estado']
export const CONTACT_PATH = '/api/site/contato'

const READ_HEADERS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-request-id' }
const READ_PREFLIGHT = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD', 'access-control-max-age': '86400' }
const CONTACT_EXPOSE = 'x-request-id, retry-after, idempotent-replayed'
const CONTACT_PREFLIGHT = {
  'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, x-request-id, idempotency-key', 'access-control-max-age': '600',
}

// The challenges and the nonce a client needs to read to answer a refusal, besides the request id.
const TOKEN_HEADERS = {
  'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-request-id, www-authenticate, dpop-nonce, retry-after, idempotent-replayed',
}
const TOKEN_PREFLIGHT = {
  'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'authorization, dpop, content-type, x-request-id, idempotency-key, mcp-protocol-version',
  'access-control-max-age': '600',
}

const readPaths = new Set(PUBLIC_READS)
const isApi = (path: string) => path === '/api' || path.startsWith('/api/')

function pathOf(url: string): string {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

export const cors = fp(async (app: FastifyInstance, opts: { siteOrigins: string[] }) => {
  const allowed = new Set(opts.siteOrigins)

  function preflight(req: FastifyRequest, reply: FastifyReply, path: string): boolean {
    if (readPaths.has(path)) {
      reply.headers(READ_PREFLIGHT)
      // No fixed list of request headers: a read sends none that matter, so whatever is asked is allowed.
      const asked = req.headers['access-control-request-headers']
      if (asked) reply.header('access-control-allow-headers', asked).header('vary', 'Access-Control-Request-Headers')
      reply.code(204).send()
      return true
    }
    const origin = req.headers.origin!
    if (path === CONTACT_PATH && allowed.has(origin)) {
      reply.headers(CONTACT_PREFLIGHT).header('access-control-allow-origin', origin).header('vary', 'Origin').code(204).send()
      return true
    }
    // The rest of /api (the contact path aside, whose preflight is for SITE_ORIGINS only).
    if (isApi(path) && path !== CONTACT_PATH) {
      reply.headers(TOKEN_PREFLIGHT).code(204).send()
      return true
    }
    // Not a preflight this service answers: the gate answers it like any other method (405 or 401).
    return false
  }

  app.addHook('onRequest', (req, reply, done) => {
    const route = req.routeOptions.url
    // With or without Origin: a shared cache may hand this answer to a cross-origin reader later.
    if (route !== undefined && readPaths.has(route)) {
      reply.headers(READ_HEADERS)
      return done()
    }
    const origin = req.headers.origin
    if (origin === undefined) return done()
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      if (preflight(req, reply, pathOf(req.url))) return
      return done()
    }
    if (route === CONTACT_PATH) {
      if (allowed.size > 0) reply.header('vary', 'Origin')
      if (allowed.has(origin)) reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', CONTACT_EXPOSE)
    } else if (isApi(pathOf(req.url))) {
      reply.headers(TOKEN_HEADERS)
    }
    done()
  })
}, { name: 'cors' })

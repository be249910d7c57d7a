// The MCP server at /api/mcp: Streamable HTTP, stateless (one server and one transport per POST, no session),
// behind the credential layer with a personal access token of scope `mcp` only (never the site's session
// cookie: an agent holds a token, and a cookie would let any page a person visits drive their account). Its
// refusals name the resource's RFC 9728 document, served with the API's own at /.well-known/oauth-protected-resource.
//
// Each POST is one HTTP request for the rate limits (the per-IP budget of the route, the per-credential budget
// of the guard): a JSON-RPC batch would make many calls of one request, and MCP has had none since 2025-06-18,
// so an array body is refused.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DEFAULT_DPOP_ALGORITHMS } from '../credentials/index.ts'
import { resourceMetadata, WELL_KNOWN } from '../credentials/index.ts'
import { SCOPES } from '../credentials/index.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { problem } from '../../platform/http/problem.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { NonJsonBody } from '../../platform/http/request-body.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import { onFirstUse } from '../../platform/lib/on-first-use.ts'
import { hijackWithHeaders, mcpResponseHeaders } from './hijack.ts'
import type { ServerDeps } from './server.ts'

export const MCP_PATH = '/api/mcp'

// The SDK is read on the first MCP request, not at start: an instance nobody calls it on never loads it (about a
// third of a second and 25 MB).
const loadSdk = onFirstUse(() => Promise.all([import('./server.ts'), import('@modelcontextprotocol/node')])
  .then(([server, node]) => ({ server, node })))

export type McpRoutesDeps = ServerDeps & {
  publicUrl: string
  production: boolean
  /** The per-IP budget of /api/mcp (the credential's own is the guard's). */
  budget: Budget
}

export function mcpRoutes(deps: McpRoutesDeps) {
  const own = mcpResponseHeaders(deps.production)
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'mcp', apenasToken: true, recurso: MCP_PATH } }
  const documents = {
    [WELL_KNOWN]: resourceMetadata(deps.publicUrl, '', { name: 'API do serviço público', scopes: SCOPES, algs: DEFAULT_DPOP_ALGORITHMS }),
    [WELL_KNOWN + MCP_PATH]: resourceMetadata(deps.publicUrl, MCP_PATH, { name: 'Servidor MCP', scopes: ['mcp'], algs: DEFAULT_DPOP_ALGORITHMS }),
  }

  return async function (app: FastifyInstance) {
    app.post(MCP_PATH, { config, schema: { hide: true } }, async (req, reply) => {
      if (Array.isArray(req.body) || req.body instanceof NonJsonBody || req.body === null || typeof req.body !== 'object') {
        throw problem('requisicao_invalida')
      }
      await serve(deps, own, req, reply)
    })
    // Stateless: no stream to open with GET, no session to end with DELETE.
    for (const method of ['GET', 'DELETE'] as const) {
      app.route({ method, url: MCP_PATH, config, schema: { hide: true }, handler: async () => { throw problem('metodo_nao_permitido', { allow: 'POST' }) } })
    }
    // Public, outside /api: what a client that only knows the URL learns before it has a token.
    for (const [path, document] of Object.entries(documents)) {
      app.get(path, { schema: { hide: true } }, async (_req, reply) => {
        reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600')
        return document
      })
    }
  }
}

async function serve(deps: McpRoutesDeps, own: Record<string, string>, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { server: made, node } = await loadSdk()
  const server = made.mcpServerFor(deps, { credential: req.credential!, by: req })
  const transport = new node.NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  reply.raw.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  hijackWithHeaders(reply, own)
  try {
    await transport.handleRequest(req.raw, reply.raw, req.body)
  } catch (err) {
    req.log.error(errorFacts(err), 'MCP request failed')
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' })
    if (!reply.raw.writableEnded) reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }))
  }
}

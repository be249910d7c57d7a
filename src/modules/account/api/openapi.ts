// The second OpenAPI document: what a credential unlocks (GET /api/conta/openapi.json, itself behind a credential).
// Made from the same definitions the routes are registered with, so the two cannot disagree; /openapi.json stays
// exactly the public contract.
import { CONTRACT_VERSION } from '../../../platform/http/openapi.ts'
import { ACCOUNT_ROUTES } from './definitions.ts'

type Schema = Record<string, unknown>

/** `more`: paths of other parts behind the same credentials (the MCP server's), under /api as the rest. */
export function accountDocument(more: Record<string, Record<string, unknown>> = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const { method, url, escopo, schema } of Object.values(ACCOUNT_ROUTES)) {
    type Parts = Schema & { response: Record<string, Schema>, params?: Schema, querystring?: Schema, headers?: Schema }
    const { response, params, querystring, headers, hide: _hide, ...rest } = schema as unknown as Parts
    const path = url.slice('/api'.length).replace(/:(\w+)/g, '{$1}')
    const operations = (paths[path] ??= {})
    operations[method.toLowerCase()] = {
      ...rest,
      ...(escopo ? { description: `${(rest.description as string | undefined) ?? ''} Needs the scope \`${escopo}\`.`.trim() } : {}),
      parameters: [...parameters(params, 'path'), ...parameters(querystring, 'query'), ...parameters(headers, 'header')],
      responses: Object.fromEntries(Object.entries(response).map(([status, body]) => [status, responseOf(body)])),
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Factoring platform: account API',
      version: CONTRACT_VERSION,
      description: 'What a credential unlocks. Personal access tokens go in `Authorization: Bearer <token>`; a token bound to a key '
        + '(DPoP, RFC 9449) goes in `Authorization: DPoP <token>` with one `DPoP` proof header for each request, carrying the '
        + 'server\'s nonce (the first call answers 401 `dpop_nonce_obrigatorio` with a `DPoP-Nonce` header to use). '
        + 'The web app\'s session cookie works from the site itself (same origin; `X-CSRF-Token` on requests that change data). '
        + 'Every other path under /api answers 404 with a valid credential.',
    },
    servers: [{ url: '/api', description: 'This origin' }],
    tags: [
      { name: 'conta', description: 'The account and its audit trail' }, { name: 'tokens', description: 'Personal access tokens' },
      ...(Object.keys(more).length ? [{ name: 'mcp', description: 'The MCP server, for AI agents' }] : []),
    ],
    components: {
      securitySchemes: {
        pat: { type: 'http', scheme: 'bearer', description: 'A personal access token not bound to a key.' },
        dpop: { type: 'http', scheme: 'dpop', description: 'A token bound to a key, with a DPoP proof header (RFC 9449).' },
      },
    },
    security: [{ pat: [] }, { dpop: [] }],
    paths: { ...paths, ...more },
  }
}

function parameters(schema: Schema | undefined, where: 'path' | 'query' | 'header'): Schema[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>
  const required = new Set((schema?.required ?? []) as string[])
  return Object.entries(properties).map(([name, s]) => ({
    name, in: where, required: where === 'path' || required.has(name), schema: plain(s), ...(s.description ? { description: s.description } : {}),
  }))
}

function responseOf(body: Schema): Schema {
  const description = (body.description as string | undefined) ?? 'OK'
  if (body.type === 'null') return { description }
  return { description, content: { 'application/json': { schema: plain(body) } } }
}

/** The schema as JSON (TypeBox marks its objects with symbols, which JSON leaves out). */
function plain(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema)) as Schema
}

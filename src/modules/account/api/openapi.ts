// The second OpenAPI document: what a credential unlocks (GET /api/conta/openapi.json, itself behind a credential).
// Made from the same definitions the routes are registered with (src/platform/http/route-document.ts), so the two
// cannot disagree; other modules' paths join it; /openapi.json stays exactly the public contract.
import { CONTRACT_VERSION } from '../../../platform/http/openapi.ts'
import { pathItems } from '../../../platform/http/route-document.ts'
import { ACCOUNT_ROUTES } from './definitions.ts'

/** `more`: paths of other parts behind the same credentials (the MCP server's), under /api as the rest. */
export function accountDocument(more: Record<string, Record<string, unknown>> = {}): Record<string, unknown> {
  const paths = pathItems(Object.values(ACCOUNT_ROUTES))
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

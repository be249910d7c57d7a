// /api/mcp in the account's OpenAPI document (GET /api/conta/openapi.json, seen only with a credential): the
// contract keeps the MCP server out of the public one. The tools are listed from their definitions, so the
// document names what tools/list answers.
import type { Tool } from './tool.ts'

/** `resources`: how each contributing module's resources read (the site's: its pages and the public document). */
export function mcpPathItem(tools: Tool[], resources: string[]): Record<string, unknown> {
  const list = tools.map((t) => `\`${t.name}\`${t.twin.escopo ? ` (scope \`${t.twin.escopo}\` too)` : ''}: ${t.description}`).join('\n- ')
  const problemBody = { type: 'object', properties: { detail: { type: 'string' } } }
  const problem = (description: string) => ({ description, content: { 'application/json': { schema: problemBody } } })
  return {
    post: {
      operationId: 'mcp', tags: ['mcp'], summary: 'MCP server (Streamable HTTP, stateless)',
      description: 'JSON-RPC 2.0 messages of the Model Context Protocol, one per request (no batches, no session; GET and DELETE answer 405). '
        + 'Needs the scope `mcp`, as a Bearer token: the session cookie is not accepted here, and a DPoP-bound token is refused without its '
        + 'proof, so give an agent an unbound token. A refusal names `resource_metadata` in `WWW-Authenticate` (RFC 9728). '
        + `Tools (refusals are tool errors whose text is the API's problem body):\n- ${list}\n\n`
        + `Resources: ${resources.join('; ')}.`,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request or notification.' } } } },
      responses: {
        200: { description: 'The JSON-RPC response.', content: { 'application/json': { schema: { type: 'object' } } } },
        202: { description: 'A notification, accepted.' },
        400: problem('A JSON-RPC batch (an array): requisicao_invalida.'),
        401: problem('No token, or one refused (see WWW-Authenticate, with resource_metadata).'),
        403: problem('The token lacks the scope mcp (escopo_insuficiente), or the subscription is suspended (assinatura_inativa).'),
        429: problem('Over the per-IP or the per-credential rate limit; see Retry-After (seconds).'),
      },
    },
  }
}

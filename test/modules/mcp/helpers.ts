// Talking to /api/mcp as an agent does: the SDK's own client over Streamable HTTP with a token in
// Authorization, and single JSON-RPC posts for what a client library hides (a resent call, a refusal's headers).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { defer } from '../../helpers/fixture.ts'
import type { TestContext } from 'node:test'

export const MCP_PATH = '/api/mcp'
export const PROTOCOL_VERSION = '2025-11-25'

/** A connected SDK client, closed when the test ends. */
export async function mcpClient(t: TestContext, base: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'teste', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, base), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  })
  await client.connect(transport)
  defer(t, () => client.close())
  return client
}

/** One JSON-RPC request, as a client posts it (both media types accepted). */
export function rpc(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(MCP_PATH, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION, ...headers },
    body: JSON.stringify(body),
  })
}

export function toolCall(id: number | string, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }
}

/** The JSON of a tool result's text, the refusal's problem body when it is an error. */
export function resultJson(result: { content?: unknown }): Record<string, unknown> {
  const content = result.content as { type: string, text: string }[]
  return JSON.parse(content[0]!.text) as Record<string, unknown>
}

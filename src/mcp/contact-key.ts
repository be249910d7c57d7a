// enviar_contato's idempotency key: the same tool call, sent again by an agent that did not see the answer (a
// lost connection, a client's retry), must send one message. An MCP client numbers its requests and resends a
// request with its id; the key is that id and the arguments, for that credential, so another credential, another
// request or other arguments never share it.
import { createHash } from 'node:crypto'
import { canonicalJson } from '../idempotency/canonical-json.ts'

export function contactCallKey(credentialId: string, rpcId: string | number, args: unknown): string {
  const digest = createHash('sha256')
    .update(`mcp.enviar_contato\n${credentialId}\n${typeof rpcId}:${String(rpcId)}\n${canonicalJson(args)}`)
    .digest('base64url')
  return `mcp-${digest}`
}

// One MCP server per HTTP request (stateless Streamable HTTP): made for the request's credential, it lists the
// tools and the resources, and runs a call as the credential's customer. A call without the scope of its tool's
// REST twin is refused; every call writes its audit row (`mcp.<tool>`, the request id, `motivo` the refusal's code) under the
// customer's tenancy, after the tool ran, whatever it answered.
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server'
import { createRequire } from 'node:module'
import { appendAudit } from '../../platform/tenancy/audit/store.ts'
import { actionContext, actorOf, changes, permits } from '../credentials/index.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { refusalOf } from '../../platform/http/refusal.ts'
import { RequestValidationError } from '../../platform/http/validation-errors.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import { checked, declared } from './sdk-schemas.ts'
import { checkArguments } from './arguments.ts'
import type { Outcome, Resource, Tool, ToolCall } from './tool.ts'
import { TWIN_META, twinMeta } from './twins.ts'

const NO_INPUT = { type: 'object', properties: {}, additionalProperties: false }

export const SERVER_INFO = { name: 'fatorial-servico-publico', title: 'Serviço público da plataforma de factoring' }

export type ServerDeps = {
  db: Database
  clock: Clock
  version: string
  tools: Tool[]
  resources: Resource[]
}


/**
 * The package's own version, for a build not stamped with APP_VERSION (npm start, a developer's build): package.json
 * is beside dist/ and src/ alike, and in the image.
 */
const PACKAGE_VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version

export function mcpServerFor(deps: ServerDeps, call: ToolCall): McpServer {
  const server = new McpServer({ ...SERVER_INFO, version: deps.version || PACKAGE_VERSION }, {
    instructions: 'Ferramentas e páginas do serviço público: status, versão, contato, e a conta do cliente deste token.',
  })
  for (const tool of deps.tools) {
    // Every tool declares an input, an empty one at least: the SDK then calls the handler with (args, ctx), never (ctx).
    server.registerTool(tool.name, {
      title: tool.title, description: tool.description, _meta: { [TWIN_META]: twinMeta(tool.twin) },
      inputSchema: declared(tool.input ?? NO_INPUT), outputSchema: checked(tool.output),
    }, async (args: unknown) => {
      try {
        return toResult(await runAudited(deps, tool, (args ?? {}) as Record<string, unknown>, call))
      } catch (err) {
        // The audit row could not be written: the call is answered as failed, whatever the tool did.
        call.by.log.error(errorFacts(err), `MCP tool ${tool.name}: audit row not written`)
        return toResult({ ok: false, detail: 'servico_indisponivel' })
      }
    })
  }
  for (const r of deps.resources) {
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType },
      async () => ({ contents: [{ uri: r.uri, mimeType: r.mimeType, text: await r.read() }] }))
  }
  return server
}

async function runAudited(deps: ServerDeps, tool: Tool, args: Record<string, unknown>, call: ToolCall): Promise<Outcome> {
  const c = call.credential
  let outcome: Outcome
  // Every tool's arguments are checked by the service (arguments.ts), so that a refused call is audited too.
  const checked = tool.checksInput ? undefined : checkArguments(tool.input ?? NO_INPUT, args)
  const escopo = tool.twin.escopo
  if (escopo && !(c.escopos as readonly string[]).includes(escopo)) {
    outcome = { ok: false, detail: 'escopo_insuficiente', extra: { escopo } }
  } else if (escopo && c.papel && !permits(c.papel, escopo, changes(tool.twin.method, { somenteLeitura: tool.twin.somenteLeitura ?? false }))) {
    // The token's maker's role, as the twin's guard checks it.
    outcome = { ok: false, detail: 'papel_insuficiente' }
  } else if (checked && !checked.ok) {
    outcome = { ok: false, detail: checked.errors }
  } else {
    try {
      outcome = await tool.run(args, call)
    } catch (err) {
      outcome = toolFailure(err, call, tool.name)
    }
  }
  const motivo = outcome.ok ? null : typeof outcome.detail === 'string' ? outcome.detail : 'validacao'
  const ctx = actionContext(call.by, actorOf(c), deps.clock.now())
  await withTenant(deps.db, c.clienteId, (tx) => appendAudit(tx, c.clienteId, ctx, `mcp.${tool.name}`, { alvoId: outcome.alvoId ?? null, motivo }))
  return outcome
}

/**
 * A tool that threw: a domain refusal is answered by its code (refusalOf, the mapping every surface shares);
 * anything else means the database did not answer, and the agent may retry. Logged by its facts alone (a query
 * may quote the input).
 */
export function toolFailure(err: unknown, call: Pick<ToolCall, 'by'>, toolName: string): Outcome {
  // The arguments broke a rule their schema cannot say (a day that does not exist): the route's own 422 items.
  if (err instanceof RequestValidationError) return { ok: false, detail: err.items }
  const refused = refusalOf(err)
  if (refused) {
    const { detail, ...extra } = refused.answer.body
    return { ok: false, detail, ...(Object.keys(extra).length ? { extra } : {}) }
  }
  call.by.log.error(errorFacts(err), `MCP tool ${toolName} failed`)
  return { ok: false, detail: 'servico_indisponivel' }
}

/** A refusal is a tool error (isError) whose text is the API's problem body: `detail` and its fields. */
export function toResult(outcome: Outcome): CallToolResult {
  if (outcome.ok) return { content: [{ type: 'text', text: JSON.stringify(outcome.value) }], structuredContent: outcome.value }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ detail: outcome.detail, ...outcome.extra }) }] }
}

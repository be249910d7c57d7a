// What a module gives the MCP server: tools, each answering as one REST route answers (its twin), and resources.
// Modules contribute them through the `mcp` point (src/platform/module.ts); this module never imports them.
import type { FastifyRequest } from 'fastify'
import type { AuditAction } from '../../platform/tenancy/audit/store.ts'
import type { DetailCode } from '../../platform/http/problem-catalogue.ts'
import type { ValidationItem } from '../../platform/http/validation-errors.ts'
import type { Credential } from '../credentials/index.ts'
import type { JsonSchema } from './json-schema.ts'
import type { Twin } from './twins.ts'

/** A tool's name is its audit action's second half: the audit catalogue (AUDIT_ACTIONS) lists every tool. */
export type ToolName = Extract<AuditAction, `mcp.${string}`> extends `mcp.${infer N}` ? N : never

/** The credential of a tool call, and the HTTP request it came in. */
export type ToolCall = { credential: Credential, by: FastifyRequest }

/** `alvoId`: what the call was about, for its audit row. A refusal names a code of the catalogue, or the 422's items. */
export type Outcome =
  | { ok: true, value: Record<string, unknown>, alvoId?: string }
  | { ok: false, detail: DetailCode | ValidationItem[], extra?: Record<string, unknown>, alvoId?: string }

export type Tool = {
  name: ToolName
  title: string
  description: string
  /** The REST route it answers as: a call needs that route's scope, read from the route's own definition. */
  twin: Twin
  input?: JsonSchema
  /** The service checks the arguments itself (with its own error items), not the SDK. */
  checksInput?: true
  output: JsonSchema
  run(args: Record<string, unknown>, call: ToolCall): Promise<Outcome>
}

/** A resource an agent reads: its text, made when read. */
export type Resource = {
  name: string
  uri: string
  title: string
  description: string
  mimeType: string
  read(): Promise<string>
}

/** One module's part of the MCP server. */
export type McpContribution = {
  tools?: Tool[]
  resources?: Resource[]
  /** How its resources read in the customers' OpenAPI document's description of /api/mcp. */
  resourcesSummary?: string
}

declare module '../../platform/module.ts' {
  interface ModuleContributions {
    mcp: McpContribution
  }
}

export const ok = (value: Record<string, unknown>): Outcome => ({ ok: true, value })

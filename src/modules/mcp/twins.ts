// Every MCP tool answers what one REST route answers, and must refuse what that route refuses: its twin. A tool
// names its twin, and the scope it needs is read from the twin's own route definition, never written twice; a
// tool whose twin is a public route needs nothing beyond the `mcp` scope that opens the server. The twin is
// published in each tool's `_meta` (TWIN_META), so an agent, and the test that holds each tool to its twin,
// learns it from tools/list.
import type { Scope } from '../credentials/index.ts'

export type Twin = {
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  /** The scope the route needs; undefined for a public route or a credentialed one that needs none. */
  escopo: Scope | undefined
  /** Answers without a credential (one of the public contract's routes). */
  publica: boolean
  /** The route changes nothing although its method is not GET (a simulation): a role that only reads may call it. */
  somenteLeitura?: boolean
}

/** A route of the public contract. */
export const publicTwin = (method: Twin['method'], url: string): Twin => ({ method, url, escopo: undefined, publica: true })

/** A credentialed route, from its definition (method, path, scope). */
export const routeTwin = (
  { method, url, escopo, somenteLeitura }: { method: Twin['method'], url: string, escopo: Scope | undefined, somenteLeitura?: boolean },
): Twin => ({ method, url, escopo, publica: false, ...(somenteLeitura ? { somenteLeitura: true } : {}) })

/** The `_meta` key under which tools/list names each tool's twin. */
export const TWIN_META = 'fatorial/gemeo_rest'

/** The twin as tools/list shows it: `escopos`, every scope a call needs (`mcp` first). */
export function twinMeta(twin: Twin): Record<string, unknown> {
  return { metodo: twin.method, rota: twin.url, publica: twin.publica, escopos: ['mcp', ...(twin.escopo ? [twin.escopo] : [])] }
}

/** The description tools/list shows: the tool's own, and the scope its twin needs. */
export function describedWithScope(tool: { description: string, twin: Twin }): string {
  return tool.twin.escopo ? `${tool.description} Precisa do escopo \`${tool.twin.escopo}\`.` : tool.description
}

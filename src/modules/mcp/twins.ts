// Every MCP tool answers what one REST route answers, and must refuse what that route refuses: its twin. A tool
// names its twin here, and the scope it needs is read from the twin's own definition (ACCOUNT_ROUTES), never
// written twice; a tool whose twin is a public route needs nothing beyond the `mcp` scope that opens the server.
// The twin is published in each tool's `_meta` (TWIN_META), so an agent, and the test that holds each tool to its
// twin, learns it from tools/list.
import { ACCOUNT_ROUTES } from '../account/index.ts'
import type { Scope } from '../credentials/index.ts'
import type { ToolName } from './tools.ts'
import { CONTACT_API_PATH, SUBJECTS_API_PATH } from '../contact/index.ts'

export type Twin = {
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  /** The scope the route needs; undefined for a public route or a credentialed one that needs none. */
  escopo: Scope | undefined
  /** Answers without a credential (one of the public contract's routes). */
  publica: boolean
}

const publicRoute = (method: Twin['method'], url: string): Twin => ({ method, url, escopo: undefined, publica: true })
const accountRoute = ({ method, url, escopo }: { method: Twin['method'], url: string, escopo: Scope | undefined }): Twin =>
  ({ method, url, escopo, publica: false })

export const TWINS = {
  status_servicos: publicRoute('GET', '/api/status'),
  versao: publicRoute('GET', '/api/version'),
  assuntos_contato: publicRoute('GET', SUBJECTS_API_PATH),
  enviar_contato: publicRoute('POST', CONTACT_API_PATH),
  minha_conta: accountRoute(ACCOUNT_ROUTES.conta),
  listar_tokens: accountRoute(ACCOUNT_ROUTES.tokens),
  revogar_token: accountRoute(ACCOUNT_ROUTES.revogar),
  auditoria: accountRoute(ACCOUNT_ROUTES.auditoria),
} as const satisfies Record<ToolName, Twin>

/** The `_meta` key under which tools/list names each tool's twin. */
export const TWIN_META = 'fatorial/gemeo_rest'

/** The twin as tools/list shows it: `escopos`, every scope a call needs (`mcp` first). */
export function twinMeta(twin: Twin): Record<string, unknown> {
  return { metodo: twin.method, rota: twin.url, publica: twin.publica, escopos: ['mcp', ...(twin.escopo ? [twin.escopo] : [])] }
}

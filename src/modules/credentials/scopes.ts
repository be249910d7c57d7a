// What a personal access token may be used for: the one list of scopes (the CLI, the web app and the API check
// against it). `conta`: read the account (GET /api/conta, its audit trail); `tokens`: list and revoke the
// customer's tokens; `mcp`: the MCP server; and the product's areas (produto.md §1): `cadastro` (cedentes,
// sacados, pricing terms, holidays), `operacoes` (operations, títulos, quotes, simulations, asking for a
// payment), `aprovacao` (approving a payment), `financeiro` (recording a payment, the ledger), `cobranca` (release II:
// collection accounts, charges, CNAB files), `webhooks` (the endpoints events are delivered
// to, and their delivery log). What a person
// may do with each is their role's (roles.ts).
import { DomainError } from '../../platform/http/domain-error.ts'

export const SCOPES = ['conta', 'tokens', 'mcp', 'cadastro', 'operacoes', 'aprovacao', 'financeiro', 'cobranca', 'webhooks'] as const

export type Scope = (typeof SCOPES)[number]

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)

/** `a,b` as given on a command line or a form: each a known scope (a repeat counts once); the error names what is wrong. */
export function parseScopes(text: string): Scope[] {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean)
  if (items.length === 0) throw new InvalidScopesError(`at least one scope is needed (${SCOPES.join(', ')})`)
  const unknown = items.filter((s) => !isScope(s))
  if (unknown.length) {
    throw new InvalidScopesError(`unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `"${s}"`).join(', ')}: use ${SCOPES.join(', ')}`)
  }
  return [...new Set(items as Scope[])]
}

/** A list of scopes that names none, or one the service does not know. */
export class InvalidScopesError extends DomainError<'entrada_recusada'> {
  constructor(message: string) { super('entrada_recusada', message) }
}

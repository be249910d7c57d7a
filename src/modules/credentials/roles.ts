// A person's role in their customer, and what each lets them do with each scope's area (produto.md §1, "Who may
// do what"): `escrever` (change), `ler` (read only) or nothing. A route's need (a scope, and whether the request
// changes data) is allowed to a person when their role reaches it; a token made by a person never holds a scope
// their role cannot use at all, and is checked against that person's role as it is at each request (a role
// taken away takes effect at once). A token the operator made has no person: its scopes alone decide.
import type { Scope } from './scopes.ts'

export const PAPEIS = ['administrador', 'operador', 'aprovador', 'consulta'] as const
export type Papel = (typeof PAPEIS)[number]

export const isPapel = (value: unknown): value is Papel => (PAPEIS as readonly unknown[]).includes(value)

type Access = 'escrever' | 'ler'

/** Each role's access, by scope; a scope missing is no access. */
export const ACESSO: Record<Papel, Partial<Record<Scope, Access>>> = {
  administrador: {
    conta: 'escrever', tokens: 'escrever', mcp: 'escrever', cadastro: 'escrever', operacoes: 'escrever', aprovacao: 'escrever', financeiro: 'escrever',
    cobranca: 'escrever', webhooks: 'escrever',
  },
  // Registers and operations, and recording the transfer an approver let through; never approving.
  operador: {
    conta: 'escrever', mcp: 'escrever', cadastro: 'escrever', operacoes: 'escrever', aprovacao: 'ler', financeiro: 'escrever', cobranca: 'escrever',
    webhooks: 'ler',
  },
  aprovador: { conta: 'escrever', mcp: 'escrever', cadastro: 'ler', operacoes: 'ler', aprovacao: 'escrever', financeiro: 'ler', cobranca: 'ler',
    webhooks: 'ler' },
  consulta: { conta: 'escrever', mcp: 'escrever', cadastro: 'ler', operacoes: 'ler', aprovacao: 'ler', financeiro: 'ler', cobranca: 'ler',
    webhooks: 'ler' },
}

/** Whether `papel` may do what a route needs: read, or change (`escrita`), in the area of `escopo`. */
export function permits(papel: Papel, escopo: string, escrita: boolean): boolean {
  const access = ACESSO[papel][escopo as Scope]
  return access === 'escrever' || (access === 'ler' && !escrita)
}

/** The scopes a token made by a person of this role may hold: those the role reaches at all. */
export function scopesOf(papel: Papel): Scope[] {
  return Object.keys(ACESSO[papel]) as Scope[]
}

/** The scopes of `wanted` that a person of `papel` may not put in a token. */
export function scopesBeyond(papel: Papel, wanted: readonly Scope[]): Scope[] {
  const allowed = new Set(scopesOf(papel))
  return wanted.filter((s) => !allowed.has(s))
}

// The account module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { ACCOUNT_ROUTES } from './api/definitions.ts'
export { accountModule } from './module.ts'
export { AuditoriaOut, ContaOut, TokensOut } from './api/schemas.ts'
export { accountView, auditView, revokeOwnToken, tokensView } from './api/views.ts'

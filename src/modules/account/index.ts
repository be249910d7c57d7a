// The account module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { ACCOUNT_ROUTES } from './api/definitions.ts'
export { accountModule } from './module.ts'
export { AuditoriaOut, ContaOut, TokensOut } from './api/schemas.ts'
export { accountView, auditView, revokeOwnToken, tokensView } from './api/views.ts'
// The web app's kit, for the pages other modules add under /conta: the session, its CSRF token, the forms' checks,
// the pieces pages are built from, and how a page is sent.
export { makeWebContext } from './web/web-context.ts'
export type { AccountWebDeps, WebContext } from './web/web-context.ts'
export type { LiveSession } from './web/session.ts'
export { field, formFields } from './web/form-body.ts'
export { fromThisSite } from './web/same-origin.ts'
export { readSessionCookie } from './web/session-cookie.ts'
export { signedOut } from './web/login-routes.ts'
export { ACCOUNT_PATHS } from './web/paths.ts'
export { FORM_REFUSED, ROLE_REFUSED } from './web/messages.ts'
export { CSRF_FIELD, errorSummary, hidden, inputField, messagePage, notice, NO_AUTOCORRECT } from './web/view-parts.ts'
export type { FieldOptions, Page } from './web/view-parts.ts'
export type { AccountShell, ShellWho } from './web/shell.ts'

// People of a customer for the web app's tests: invited through the same path as the CLI (the e-mail's link),
// or already active with a real argon2id password; and the web app's forms posted as a browser of this site does.
import { randomBytes } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { OPERATOR } from '../../src/platform/tenancy/audit/store.ts'
import { makePasswordHasher } from '../../src/modules/credentials/password.ts'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { sendInvitation } from '../../src/modules/credentials/users/send-invitation.ts'
import { acceptInvitation, findInvitation, inviteUser } from '../../src/modules/credentials/users/store.ts'
import type { Papel } from '../../src/modules/credentials/roles.ts'
import type { App } from '../../src/app.ts'
import type { Database } from '../../src/platform/db/database.ts'
import { customer } from './credentials.ts'

/** What inject's default Host (`localhost:80`) makes this site's origin. */
export const SITE_ORIGIN = 'http://localhost'

export const PASSWORD = 'cavalo correto bateria grampo'

export type Invited = { clienteId: string, usuarioId: string, email: string, nome: string, link: string, token: string }

/** A new customer's person with an invitation sent (the outbox has the e-mail); `link` is the e-mail's. */
export async function invitedPerson(
  db: Database, publicUrl = SITE_ORIGIN, nome = 'Ana Souza', email = `ana.${randomBytes(4).toString('hex')}@cliente.com.br`, customerName?: string,
): Promise<Invited> {
  const { id: clienteId } = await customer(db, customerName)
  const sent = await withTenant(db, clienteId, (tx) => sendInvitation(tx, { clienteId, email, nome, invitedBy: 'Equipe comercial' },
    { actor: OPERATOR, now: new Date() }, publicUrl))
  return { clienteId, usuarioId: sent.user.id, email, nome, link: sent.link, token: new URL(sent.link).searchParams.get('convite')! }
}

const hasher = makePasswordHasher()

/** A person who activated with `password` (hashed as the login will check it); `names` of the person and the customer. */
export async function personWithPassword(
  db: Database, password = PASSWORD, email?: string, names: { nome?: string, cliente?: string } = {},
): Promise<Invited> {
  const p = await invitedPerson(db, SITE_ORIGIN, names.nome ?? 'Ana Souza', email, names.cliente)
  const inv = (await findInvitation(db.orm, p.token))!
  const hash = await hasher.hash(password)
  await withTenant(db, p.clienteId, (tx) => acceptInvitation(tx, inv, hash, { actor: { tipo: 'usuario', id: p.usuarioId }, now: new Date() }))
  return p
}

/** A form post as a page of this site sends it (Origin and URL-encoded body), with the session `cookie` if given. */
export type PostOptions = { cookie?: string, headers?: Record<string, string>, remoteAddress?: string }

export function postForm(app: App, url: string, fields: Record<string, string | string[]>, opts: PostOptions = {}) {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) body.append(k, item)
  const req: InjectOptions = {
    method: 'POST', url, payload: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded', origin: SITE_ORIGIN, accept: 'text/html',
      ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers,
    },
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  }
  return app.inject(req)
}

/** The `name=value` of the session cookie a response sets ('' when it clears it), or undefined. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => /^(__Host-)?sessao=/.test(c))
  return header?.split(';')[0]
}

/**
 * Opens an invitation's `link` as a browser does: the answer trades its secret for a cookie and redirects to the
 * clean /conta/ativar; `cookie` is that cookie's `name=value` to send with the form (undefined when none was set).
 */
export async function openInvitation(app: App, link: string): Promise<{ res: LightMyRequestResponse, cookie: string | undefined }> {
  const url = new URL(link)
  const res = await app.inject({ url: url.pathname + url.search, headers: { accept: 'text/html' } })
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => /^(__Secure-)?convite=/.test(c))
  return { res, cookie: header?.split(';')[0] }
}

/** Logs `email` in and returns the cookie to send (`sessao=…`). */
export async function login(app: App, email: string, password = PASSWORD, remoteAddress?: string): Promise<string> {
  const res = await postForm(app, '/conta/entrar', { email, senha: password }, remoteAddress ? { remoteAddress } : {})
  const cookie = sessionCookie(res)
  if (res.statusCode !== 303 || !cookie) throw new Error(`login failed: ${res.statusCode}`)
  return cookie
}

/** The CSRF token in the account page's forms. */
export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('no CSRF token on the page')
  return token
}

export async function accountPage(app: App, cookie: string): Promise<LightMyRequestResponse> {
  return app.inject({ url: '/conta/pessoas', headers: { cookie, accept: 'text/html' } })
}

/** Another person of customer `clienteId`, active with `password` and the role `papel`. */
export async function colleagueWithPassword(db: Database, clienteId: string, papel: Papel, password = PASSWORD): Promise<{ usuarioId: string, email: string }> {
  const email = `${papel}.${randomBytes(4).toString('hex')}@cliente.com.br`
  const { invitation } = await withTenant(db, clienteId,
    (tx) => inviteUser(tx, { clienteId, email, nome: `Pessoa ${papel}`, papel }, { actor: OPERATOR, now: new Date() }))
  const inv = (await findInvitation(db.orm, invitation.token))!
  const hash = await hasher.hash(password)
  await withTenant(db, clienteId, (tx) => acceptInvitation(tx, inv, hash, { actor: { tipo: 'usuario', id: inv.usuarioId }, now: new Date() }))
  return { usuarioId: inv.usuarioId, email }
}

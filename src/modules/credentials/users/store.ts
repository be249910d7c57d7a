// The people of a customer who log into the web app (`usuarios`) and the one-time invitations that let them set
// a password (`convites`). The runtime role never reads a password hash back: login gets it for one e-mail from
// the SECURITY DEFINER function autentica_login, and an invitation is found by its digest the same way.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { dateOrNull, queryRows } from '../../../platform/db/database.ts'
import { convites, usuarios } from '../../../platform/db/schema.ts'
import { canonicalEmail, emailProblem } from '../../../platform/lib/email-address.ts'
import { newToken, tokenHash, tokenKind } from '../token-format.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { activeCustomer, type CustomerState } from '../customers/store.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { CredentialInputError, EmailInUseError, InvitationUnusableError, UnknownUserError } from '../errors.ts'
import { nameProblem, nameRefusal } from '../../../platform/lib/chosen-name.ts'
import type { Papel } from '../roles.ts'

/** A person's name, in characters (usuarios.nome's CHECK). */
export const PERSON_NAME_MAX = 200

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 72 * 3_600_000

export type UserState = 'convidado' | 'ativo' | 'suspenso'
export type User = {
  id: string, clienteId: string, email: string, nome: string, estado: UserState, papel: Papel, criadoEm: Date, ativadoEm: Date | null,
}

// Every column but senha_hash, which the runtime role may not select.
const COLUMNS = {
  id: usuarios.id, clienteId: usuarios.clienteId, email: usuarios.email, nome: usuarios.nome, estado: usuarios.estado, papel: usuarios.papel,
  criadoEm: usuarios.criadoEm, ativadoEm: usuarios.ativadoEm,
}

/** The e-mail as stored and looked up (invitation, login): canonicalEmail, NFC included. */
export const normalizeEmail = canonicalEmail

/**
 * A new person of an active customer, waiting for their invitation: the returned `token` is the secret of the
 * activation link, shown (or e-mailed) once and stored only as its digest.
 */
export async function inviteUser(
  tx: Orm, input: { clienteId: string, email: string, nome: string, papel?: Papel }, ctx: ActionContext,
): Promise<{ user: User, invitation: { id: string, token: string, expiraEm: Date } }> {
  const email = normalizeEmail(input.email)
  const problem = emailProblem(email)
  if (problem) throw new CredentialInputError(`the e-mail is not valid: ${problem}`)
  if (email.length > 254) throw new CredentialInputError('the e-mail is longer than 254 characters')
  const nome = input.nome.trim()
  const bad = nameProblem(nome, PERSON_NAME_MAX)
  if (bad) throw new CredentialInputError(nameRefusal('name', bad, PERSON_NAME_MAX))
  await activeCustomer(tx, input.clienteId)
  let user: User
  try {
    // A savepoint: the duplicate's failure must leave the caller's transaction usable for its answer.
    user = await tx.transaction(async (sp) => (await sp.insert(usuarios).values({
      clienteId: input.clienteId, email, nome, papel: input.papel ?? 'administrador', criadoEm: ctx.now,
    }).returning(COLUMNS))[0]!)
  } catch (err) {
    if (isUniqueViolation(err, 'usuarios_email_key')) throw new EmailInUseError()
    throw err
  }
  const invitation = await newInvitation(tx, user, ctx)
  await appendAudit(tx, input.clienteId, ctx, 'convite.enviado', { alvoId: user.id })
  return { user, invitation }
}

export type NewInvitation = { id: string, token: string, expiraEm: Date }

/** An invitation for `user`, valid INVITATION_TTL_MS: its secret returned once, stored as its digest. */
async function newInvitation(tx: Orm, user: Pick<User, 'id' | 'clienteId'>, ctx: ActionContext): Promise<NewInvitation> {
  const token = newToken('convite')
  const expiraEm = new Date(ctx.now.getTime() + INVITATION_TTL_MS)
  const [invitation] = await tx.insert(convites).values({
    clienteId: user.clienteId, usuarioId: user.id, hash: tokenHash(token), criadoEm: ctx.now, expiraEm,
  }).returning({ id: convites.id })
  return { id: invitation!.id, token, expiraEm }
}

/**
 * A new invitation for a person still waiting for one (`convidado`), the ones before it dead at once (their expiry
 * brought to now: the link of a lost or leaked e-mail no longer works). Anyone else: InvitationUnusableError.
 */
export async function reissueInvitation(
  tx: Orm, ref: { clienteId: string, usuarioId: string }, ctx: ActionContext,
): Promise<{ user: User, invitation: NewInvitation }> {
  await activeCustomer(tx, ref.clienteId)
  const user = await getUser(tx, ref.usuarioId)
  if (!user || user.clienteId !== ref.clienteId) throw new UnknownUserError()
  if (user.estado !== 'convidado') throw new CredentialInputError(`the person is ${user.estado}, not waiting for an invitation`)
  // Never before the row's creation (CHECK expira_em > criado_em), never later than it was (a trigger of 0010).
  await tx.update(convites).set({ expiraEm: sql`greatest(${ctx.now.toISOString()}::timestamptz, ${convites.criadoEm} + interval '1 millisecond')` })
    .where(and(eq(convites.usuarioId, user.id), isNull(convites.usadoEm), gt(convites.expiraEm, ctx.now)))
  const invitation = await newInvitation(tx, user, ctx)
  await appendAudit(tx, ref.clienteId, ctx, 'convite.reenviado', { alvoId: user.id })
  return { user, invitation }
}

export type FoundInvitation = {
  id: string, clienteId: string, usuarioId: string, expiraEm: Date, usadoEm: Date | null, clienteEstado: CustomerState,
}

/** The invitation of an activation link, before its customer is known; undefined for anything else. */
export async function findInvitation(orm: Orm, token: string): Promise<FoundInvitation | undefined> {
  if (tokenKind(token) !== 'convite') return undefined
  const [row] = await queryRows<{
    id: string, cliente_id: string, usuario_id: string, expira_em: Date | string, usado_em: Date | string | null, cliente_estado: CustomerState,
  }>(orm, sql`SELECT * FROM autentica_convite(${tokenHash(token)})`)
  return row && {
    id: row.id, clienteId: row.cliente_id, usuarioId: row.usuario_id, expiraEm: new Date(row.expira_em),
    usadoEm: dateOrNull(row.usado_em), clienteEstado: row.cliente_estado,
  }
}

/**
 * Uses the invitation once and sets the person's password (`senhaHash`: an argon2id hash made by the caller),
 * in the invitation's tenant transaction. Used, expired, or a person no longer waiting: InvitationUnusableError.
 */
export async function acceptInvitation(tx: Orm, invitation: FoundInvitation, senhaHash: string, ctx: ActionContext): Promise<User> {
  if (!senhaHash.startsWith('$argon2id$')) throw new CredentialInputError('the password hash must be argon2id')
  const [used] = await tx.update(convites).set({ usadoEm: ctx.now })
    .where(and(eq(convites.id, invitation.id), isNull(convites.usadoEm), gt(convites.expiraEm, ctx.now))).returning({ id: convites.id })
  if (!used) throw new InvitationUnusableError()
  const [user] = await tx.update(usuarios).set({ senhaHash, estado: 'ativo', ativadoEm: ctx.now })
    .where(and(eq(usuarios.id, invitation.usuarioId), eq(usuarios.estado, 'convidado'))).returning(COLUMNS)
  if (!user) throw new InvitationUnusableError()
  await appendAudit(tx, invitation.clienteId, ctx, 'convite.aceito', { alvoId: invitation.id })
  return user
}

/** After a login that proved the password: its new hash, made with the current parameters (PasswordHasher.needsRehash). */
export async function rehashPassword(tx: Orm, usuarioId: string, senhaHash: string): Promise<void> {
  if (!senhaHash.startsWith('$argon2id$')) throw new CredentialInputError('the password hash must be argon2id')
  await tx.update(usuarios).set({ senhaHash }).where(eq(usuarios.id, usuarioId))
}

export type LoginCandidate = { usuarioId: string, clienteId: string, senhaHash: string | null, usuarioEstado: UserState, clienteEstado: CustomerState }

/** What login needs to check a password for `email` (any customer's); undefined when no one has it. */
export async function findLogin(orm: Orm, email: string): Promise<LoginCandidate | undefined> {
  const [row] = await queryRows<{ id: string, cliente_id: string, senha_hash: string | null, usuario_estado: UserState, cliente_estado: CustomerState }>(
    orm, sql`SELECT * FROM autentica_login(${email})`)
  return row && {
    usuarioId: row.id, clienteId: row.cliente_id, senhaHash: row.senha_hash, usuarioEstado: row.usuario_estado, clienteEstado: row.cliente_estado,
  }
}

export async function getUser(tx: Orm, usuarioId: string): Promise<User | undefined> {
  const [row] = await tx.select(COLUMNS).from(usuarios).where(eq(usuarios.id, usuarioId))
  return row
}

export async function listUsers(tx: Orm, clienteId: string): Promise<User[]> {
  return tx.select(COLUMNS).from(usuarios).where(eq(usuarios.clienteId, clienteId)).orderBy(asc(usuarios.criadoEm), asc(usuarios.id))
}

// The role the service serves as (created by 0005_credenciais.sql): it owns nothing, is no superuser, bypasses no
// row security and belongs to no other role, so the forced row-level security of the customers' tables holds for
// every query the service makes. Migrations run as the owner; everything else as this role.
import { StartupError } from '../lib/startup-error.ts'
import type { Database } from './database.ts'

export const RUNTIME_ROLE = 'fct_servico'

/** Switches a session to the runtime role; on the embedded database, only once the migrations have created it. */
export const BECOME_RUNTIME_ROLE = `SET ROLE ${RUNTIME_ROLE}`
export const BECOME_RUNTIME_ROLE_IF_IT_EXISTS =
  `DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '${RUNTIME_ROLE}') THEN ${BECOME_RUNTIME_ROLE}; END IF; END $$`

/** A connection that could not become the runtime role: the operator's to fix (exit 2 at start). */
export class RuntimeRoleError extends StartupError {}

/** What an administrator runs to make the runtime role (as deploy/postgres/roles.sql does, there with a login). */
export const CREATE_RUNTIME_ROLE =
  `CREATE ROLE ${RUNTIME_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION NOINHERIT;`

const quoted = (login: string) => (/^[a-z_][a-z0-9_]*$/.test(login) ? login : `"${login.replaceAll('"', '""')}"`)

/** The reason a pooled connection's `SET ROLE` failed, in an operator's words; `login` is DATABASE_URL's user. */
export function runtimeRoleError(err: unknown, login?: string): Error {
  const code = (err as { code?: string }).code
  if (code === '42704') {
    return new RuntimeRoleError(`DATABASE_URL: the runtime role ${RUNTIME_ROLE} does not exist yet: apply the migrations (npm run cli -- migrate)`)
  }
  if (code === '42501') return new RuntimeRoleError(notMemberProblem(login ? quoted(login) : 'its user'))
  return err as Error
}

const ownLogin = `DATABASE_URL to ${RUNTIME_ROLE}'s own login (ALTER ROLE ${RUNTIME_ROLE} LOGIN PASSWORD '…';)`

const notMemberProblem = (login: string, changed = '') => `DATABASE_URL logs in as ${login}, which may not become the runtime role ` +
  `${RUNTIME_ROLE} the service serves as (SET ROLE ${RUNTIME_ROLE}): it is not a member of it, and may not make itself one ` +
  `(no CREATEROLE)${changed}. ` +
  `To fix it, either an administrator runs, once:  GRANT ${RUNTIME_ROLE} TO ${login};  — or MIGRATION_DATABASE_URL is set to this ` +
  `login, and ${ownLogin}.`

type OwnerFacts = { login: string, may_create_roles: boolean, role_exists: boolean, member: boolean | null }

/**
 * Before a migration changes anything, as the login that runs them (`variable` names its URL): stops with what is
 * missing, and the SQL an administrator runs, when the runtime role cannot exist or cannot be used afterwards. A
 * managed PostgreSQL's usual application user owns its database but may not create roles: it can run every migration
 * once the role is made for it, and, with one DATABASE_URL, granted to it.
 */
export async function checkRuntimeRoleCanBeMade(query: <R>(text: string) => Promise<R[]>, variable: string): Promise<void> {
  const [f] = await query<OwnerFacts>(`
    SELECT current_user AS login, r.rolsuper OR r.rolcreaterole AS may_create_roles,
           EXISTS (SELECT FROM pg_roles WHERE rolname = '${RUNTIME_ROLE}') AS role_exists,
           (SELECT pg_has_role(current_user, g.oid, 'MEMBER') FROM pg_roles g WHERE g.rolname = '${RUNTIME_ROLE}') AS member
      FROM pg_roles r WHERE r.rolname = current_user`)
  if (!f || f.login === RUNTIME_ROLE || f.may_create_roles) return
  const login = quoted(f.login)
  const single = variable === 'DATABASE_URL'
  if (!f.role_exists) {
    const made = single ? `${CREATE_RUNTIME_ROLE}  GRANT ${RUNTIME_ROLE} TO ${login};`
      : `${CREATE_RUNTIME_ROLE.replace('NOLOGIN', "LOGIN PASSWORD '…'")}  (the login DATABASE_URL uses)`
    throw new RuntimeRoleError(`${variable} logs in as ${login}, which may not create roles (no CREATEROLE), and the runtime role ` +
      `${RUNTIME_ROLE} the service serves as does not exist yet: the migrations cannot make it, and nothing was changed. ` +
      `To fix it, either an administrator runs, once:  ${made}  — or gives ${login} CREATEROLE (ALTER ROLE ${login} CREATEROLE;) — ` +
      `or MIGRATION_DATABASE_URL is set to a login that may create roles${single ? `, and ${ownLogin}` : ''}.`)
  }
  if (single && !f.member) throw new RuntimeRoleError(notMemberProblem(login, '; nothing was changed'))
}

type RoleFacts = {
  role: string
  superuser: boolean
  bypassrls: boolean
  /** The first thing in this database it owns ('table contato'…), or null. */
  owns: string | null
  /** The first role it belongs to, or null. */
  member_of: string | null
}

// current_user is the role queries run as: after SET ROLE with one DATABASE_URL, the login itself in the split set-up.
const FACTS_SQL = `
  SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypassrls,
         coalesce(
           (SELECT 'table ' || c.relname FROM pg_class c WHERE c.relowner = r.oid ORDER BY c.relname LIMIT 1),
           (SELECT 'function ' || p.proname FROM pg_proc p WHERE p.proowner = r.oid ORDER BY p.proname LIMIT 1),
           (SELECT 'schema ' || n.nspname FROM pg_namespace n WHERE n.nspowner = r.oid ORDER BY n.nspname LIMIT 1),
           (SELECT 'database ' || d.datname FROM pg_database d WHERE d.datdba = r.oid AND d.datname = current_database())
         ) AS owns,
         (SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid ORDER BY g.rolname LIMIT 1) AS member_of
    FROM pg_roles r WHERE r.rolname = current_user`

/**
 * Refuses (RuntimeRoleError naming the setting) a serving session that row-level security would not hold:
 * a superuser, BYPASSRLS, an owner of anything here, a member of another role, or any role but the runtime one.
 */
export async function checkServingRole(db: Database): Promise<void> {
  const [facts] = await db.rawTransaction((tx) => tx.query<RoleFacts>(FACTS_SQL))
  const problem = facts && servingRoleProblem(facts)
  if (problem) throw new RuntimeRoleError(`DATABASE_URL: the service would serve as "${facts.role}", ${problem}`)
}

function servingRoleProblem(f: RoleFacts): string | undefined {
  const split = `give DATABASE_URL the login of the runtime role ${RUNTIME_ROLE} and the schema owner's to MIGRATION_DATABASE_URL`
  if (f.superuser) return `a superuser, which row-level security does not hold: ${split}`
  if (f.bypassrls) return `which has BYPASSRLS and so ignores row-level security: ${split} (ALTER ROLE ${f.role} NOBYPASSRLS)`
  if (f.owns) return `which owns ${f.owns} (an owner may turn row-level security off): ${split}`
  if (f.member_of) return `which belongs to role "${f.member_of}" and could take its rights (SET ROLE): REVOKE "${f.member_of}" FROM ${f.role}`
  if (f.role !== RUNTIME_ROLE) return `not the runtime role ${RUNTIME_ROLE} the migrations grant the service's rights to: ${split}`
  return undefined
}

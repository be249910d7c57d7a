// The two ways to give the service its database, on a real PostgreSQL: one DATABASE_URL of an owner (the
// migrations run as it, every connection switches to the runtime role), or the runtime role's own login in
// DATABASE_URL and the owner's in MIGRATION_DATABASE_URL. A serving session that row security would not hold is
// refused at start, with a message naming the setting. Roles and databases made here are the test's own.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it, type TestContext } from 'node:test'
import pg from 'pg'
import { createToken, findToken } from '../../../src/modules/credentials/tokens/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase } from '../../../src/platform/db/database.ts'
import { openConfiguredDatabase } from '../../../src/platform/db/open.ts'
import { checkServingRole, RUNTIME_ROLE, RuntimeRoleError } from '../../../src/platform/db/runtime-role.ts'
import { StartupError } from '../../../src/platform/lib/startup-error.ts'
import { customer, operatorNow } from '../../helpers/credentials.ts'
import { defer, useTestDatabase } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'

const adminUrl = process.env.DATABASE_URL
const skip = adminUrl ? false : 'needs PostgreSQL (DATABASE_URL unset): the embedded database has one user'

/** Named after the test run, like its databases: scripts/test.mjs fails a run that leaves one behind. */
const scratchName = (what: string) => `fps_t_${process.env.FPS_TEST_RUN ?? 'adhoc'}_${randomBytes(3).toString('hex')}_${what}`

async function admin<R = unknown>(text: string, url = adminUrl!): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows as R[]
  } finally {
    await client.end()
  }
}

function urlAs(base: string, user: string, database?: string): string {
  const u = new URL(base)
  u.username = user
  u.password = ''
  if (database) u.pathname = `/${database}`
  return u.toString()
}

describe('database roles', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  /** A login role of the test's own, dropped when the test ends (with what it owns in the suite's database). */
  async function loginRole(t: TestContext, attributes = ''): Promise<string> {
    const name = scratchName('papel')
    await admin(`CREATE ROLE ${name} LOGIN ${attributes}`)
    defer(t, async () => {
      await admin(`DROP OWNED BY ${name}`, tdb.url)
      await admin(`DROP ROLE ${name}`)
    })
    return name
  }

  async function start(t: TestContext, env: Record<string, string>) {
    const opened = await openConfiguredDatabase(loadConfig({ DATA_DIR: tempDir('roles'), ...env }))
    defer(t, () => opened.db.close())
    return opened
  }

  const refusal = (pattern: RegExp) => (err: Error) => err instanceof RuntimeRoleError && /^DATABASE_URL/.test(err.message) && pattern.test(err.message)

  describe('with MIGRATION_DATABASE_URL, DATABASE_URL is used as it logs in, and must be the runtime role alone', () => {
    it('a superuser is refused', async (t) => {
      await assert.rejects(start(t, { DATABASE_URL: tdb.url!, MIGRATION_DATABASE_URL: tdb.url! }), refusal(/a superuser, which row-level security does not hold/))
    })

    it('a role with BYPASSRLS is refused', async (t) => {
      const role = await loginRole(t, 'BYPASSRLS')
      await assert.rejects(start(t, { DATABASE_URL: urlAs(tdb.url!, role), MIGRATION_DATABASE_URL: tdb.url! }), refusal(/has BYPASSRLS/))
    })

    it('a role that owns a table is refused', async (t) => {
      const role = await loginRole(t)
      await admin(`CREATE TABLE ${role}_t (id int); ALTER TABLE ${role}_t OWNER TO ${role}`, tdb.url)
      await assert.rejects(start(t, { DATABASE_URL: urlAs(tdb.url!, role), MIGRATION_DATABASE_URL: tdb.url! }), refusal(new RegExp(`owns table ${role}_t`)))
    })

    it('a role that belongs to another role is refused', async (t) => {
      const role = await loginRole(t)
      await admin(`GRANT pg_read_all_data TO ${role}`)
      await assert.rejects(start(t, { DATABASE_URL: urlAs(tdb.url!, role), MIGRATION_DATABASE_URL: tdb.url! }), refusal(/belongs to role "pg_read_all_data"/))
    })

    it('any other role is refused: the grants are the runtime role\'s', async (t) => {
      const role = await loginRole(t)
      await assert.rejects(start(t, { DATABASE_URL: urlAs(tdb.url!, role), MIGRATION_DATABASE_URL: tdb.url! }),
        refusal(new RegExp(`not the runtime role ${RUNTIME_ROLE}`)))
    })

    it(`${RUNTIME_ROLE}'s own login serves, as itself; the owner migrates; without MIGRATION_DATABASE_URL pending migrations are refused, naming it`,
      async (t) => {
        const [role] = await admin<{ rolcanlogin: boolean }>(`SELECT rolcanlogin FROM pg_roles WHERE rolname = '${RUNTIME_ROLE}'`)
        // The role is the cluster's: its LOGIN is lent to this test and put back as it was.
        await admin(`ALTER ROLE ${RUNTIME_ROLE} LOGIN`)
        if (!role!.rolcanlogin) defer(t, () => admin(`ALTER ROLE ${RUNTIME_ROLE} NOLOGIN`))
        const runtimeUrl = urlAs(tdb.url!, RUNTIME_ROLE)

        const { db } = await start(t, { DATABASE_URL: runtimeUrl, MIGRATION_DATABASE_URL: tdb.url! })
        const [who] = await db.rawTransaction((tx) => tx.query<{ s: string, c: string }>('SELECT session_user AS s, current_user AS c'))
        assert.deepEqual(who, { s: RUNTIME_ROLE, c: RUNTIME_ROLE })
        const [owner] = await db.ownerTransaction((tx) => tx.query<{ s: string }>('SELECT session_user AS s'))
        assert.equal(owner!.s, new URL(tdb.url!).username, 'the owner\'s transactions use MIGRATION_DATABASE_URL')
        const { id } = await customer(db)
        assert.match(id, /^[0-9a-f-]{36}$/)

        // Alone, on a database whose migrations are applied: it serves.
        await start(t, { DATABASE_URL: runtimeUrl })
        // Alone, on a database never migrated: refused, naming the setting that would apply them.
        const fresh = scratchName('db')
        await admin(`CREATE DATABASE ${fresh}`)
        defer(t, () => admin(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`))
        await assert.rejects(start(t, { DATABASE_URL: urlAs(tdb.url!, RUNTIME_ROLE, fresh) }),
          (err: Error) => err instanceof StartupError && /\d+ migrations are pending \(0001_inicial, .*\): set MIGRATION_DATABASE_URL/.test(err.message))
      })
  })

  it('one DATABASE_URL whose login may not become the runtime role is refused, naming DATABASE_URL', async (t) => {
    const role = await loginRole(t)
    const db = await openDatabase({ databaseUrl: urlAs(tdb.url!, role) })
    defer(t, () => db.close())
    await assert.rejects(checkServingRole(db), refusal(new RegExp(`may not become the runtime role ${RUNTIME_ROLE}`)))
  })

  it('a schema owner that is no superuser: its SECURITY DEFINER functions still find a credential under forced row security', async (t) => {
    const owner = scratchName('dono')
    const database = scratchName('db')
    await admin(`CREATE ROLE ${owner} LOGIN CREATEROLE`)
    await admin(`CREATE DATABASE ${database} OWNER ${owner}`)
    defer(t, async () => {
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      await admin(`DROP ROLE IF EXISTS ${owner}`)
    })
    const { db } = await start(t, { DATABASE_URL: urlAs(tdb.url!, owner, database) })
    const [who] = await db.rawTransaction((tx) => tx.query<{ s: string, c: string }>('SELECT session_user AS s, current_user AS c'))
    assert.deepEqual(who, { s: owner, c: RUNTIME_ROLE })
    const clienteId = (await customer(db)).id
    const { token, info } = await withTenant(db, clienteId, (tx) => createToken(tx, {
      clienteId, usuarioId: null, nome: 'n', escopos: ['conta'], expiraEm: new Date(Date.now() + 3_600_000),
    }, operatorNow()))
    const found = await findToken(db.orm, token)
    assert.deepEqual([found?.id, found?.clienteId], [info.id, clienteId])
  })
})

it('a MIGRATION_DATABASE_URL that cannot be reached is named, without its password', async () => {
  const config = loadConfig({
    DATA_DIR: tempDir('roles'), DATABASE_URL: 'postgres://fct_servico@127.0.0.1:1/app', MIGRATION_DATABASE_URL: 'postgres://dono:Senha-Secreta-9@127.0.0.1:1/app',
  })
  await assert.rejects(openConfiguredDatabase(config), (err: Error) => err instanceof StartupError
    && err.message === 'MIGRATION_DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1/app: nothing accepts connections there (ECONNREFUSED)')
})

// The usual application user of a managed PostgreSQL: a login that owns its database but may not create roles.
// Started with it alone in DATABASE_URL, the built service stops with one paragraph saying what is missing and the
// SQL an administrator runs (never a stack trace, never the password), having changed nothing; once the runtime
// role is made (and granted to it) by someone who may, the same login migrates and serves. On a cluster of the
// test's own: the runtime role is the cluster's, and the shared server's has it already.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { CREATE_RUNTIME_ROLE, RUNTIME_ROLE } from '../../src/platform/db/runtime-role.ts'
import { contactBody } from '../helpers/app.ts'
import { onPostgresOnly } from '../helpers/database.ts'
import { defer } from '../helpers/fixture.ts'
import { createPgCluster, postgresBinDir, type PgCluster } from '../helpers/pg-cluster.ts'
import { spawnService, waitForOutput } from '../helpers/service-process.ts'
import { until } from '../helpers/wait.ts'

const skip = onPostgresOnly('needs PostgreSQL binaries to run a cluster of its own: runs in the PostgreSQL suite (DATABASE_URL set)')
  || (postgresBinDir() ? false : 'no PostgreSQL binaries (initdb, pg_ctl) on this machine')
const PASSWORD = 'Segredo-Nunca-Mostrado-9k'

async function superuser<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text)).rows
  } finally {
    await client.end()
  }
}

describe('DATABASE_URL of a login that owns its database but may not create roles', { skip }, () => {
  let cluster: PgCluster
  // Named after the test run, as the suite's own roles and databases are.
  const name = `fps_t_${process.env.FPS_TEST_RUN ?? 'adhoc'}_${randomBytes(3).toString('hex')}`
  const login = `${name}_app`
  const database = `${name}_db`
  let url: string
  before(async () => {
    cluster = await createPgCluster()
  })
  // The login, its database and the runtime role, then the cluster with whatever is left, however the suite ends.
  after(async () => {
    if (!cluster) return
    try {
      await superuser(cluster.url(), `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      await superuser(cluster.url(), `DROP DATABASE IF EXISTS ${name}_alheio WITH (FORCE)`)
      await superuser(cluster.url(), `DROP ROLE IF EXISTS ${RUNTIME_ROLE}`)
      await superuser(cluster.url(), `DROP ROLE IF EXISTS ${login}`)
    } finally {
      cluster.remove()
    }
  })
  describe('the cases', () => {
    before(async () => {
      await superuser(cluster.url(), `CREATE ROLE ${login} LOGIN NOCREATEROLE NOCREATEDB NOSUPERUSER PASSWORD '${PASSWORD}'`)
      await superuser(cluster.url(), `CREATE DATABASE ${database} OWNER ${login}`)
      url = `postgres://${login}:${PASSWORD}@127.0.0.1:${cluster.port}/${database}`
    })

    const refusal = async (t: Parameters<typeof spawnService>[0]) => {
      const service = await spawnService(t, { DATABASE_URL: url })
      const code = await service.exited
      const out = service.output()
      assert.equal(code, 2, `exit code 2 expected:\n${out}`)
      assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
      assert.ok(!out.includes(PASSWORD), 'the password is never printed')
      const tables = await superuser<{ n: number }>(cluster.url(database), "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")
      assert.deepEqual(tables, [{ n: 0 }], 'nothing was changed')
      return out
    }

    it('without the runtime role: exit 2, naming CREATEROLE, the CREATE ROLE and GRANT an administrator runs, and MIGRATION_DATABASE_URL', async (t) => {
      const out = await refusal(t)
      assert.match(out, new RegExp(`DATABASE_URL logs in as ${login}, which may not create roles \\(no CREATEROLE\\)`))
      assert.ok(out.includes(`${CREATE_RUNTIME_ROLE}  GRANT ${RUNTIME_ROLE} TO ${login};`), out)
      assert.match(out, /MIGRATION_DATABASE_URL/)
      assert.equal(out.trim().split('\n').length, 1, `one paragraph:\n${out}`)
    })

    it('with the runtime role made but not granted to it: exit 2, with the GRANT an administrator runs', async (t) => {
      await superuser(cluster.url(), CREATE_RUNTIME_ROLE)
      const out = await refusal(t)
      assert.match(out, new RegExp(`DATABASE_URL logs in as ${login}, which may not become the runtime role ${RUNTIME_ROLE}`))
      assert.ok(out.includes(`GRANT ${RUNTIME_ROLE} TO ${login};`), out)
      assert.equal(out.trim().split('\n').length, 1, `one paragraph:\n${out}`)
    })

    it('with the runtime role made and granted beforehand by a superuser: it migrates and serves', async (t) => {
      await superuser(cluster.url(), `GRANT ${RUNTIME_ROLE} TO ${login}`)
      const service = await spawnService(t, { DATABASE_URL: url, RATE_LIMIT_ALLOWLIST: '127.0.0.1/32' })
      await waitForOutput(service, /"msg":"service ready"/)
      await until('ready', async () => (await fetch(`${service.base}/api/health/ready`)).status === 200)
      const res = await fetch(`${service.base}/api/site/contato`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
      })
      assert.equal(res.status, 202)
      const owners = await superuser<{ tableowner: string }>(cluster.url(database),
        "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
      assert.deepEqual(owners, [{ tableowner: login }], 'the login owns what the migrations made')
      assert.ok(!service.output().includes(PASSWORD), 'the password is never printed')
    })

    it('on a database it does not own (no right to create in it): exit 1 with PostgreSQL\'s refusal and its SQLSTATE, no stack', async (t) => {
      const foreign = `${name}_alheio`
      await superuser(cluster.url(), `CREATE DATABASE ${foreign}`)
      defer(t, () => superuser(cluster.url(), `DROP DATABASE IF EXISTS ${foreign} WITH (FORCE)`))
      const service = await spawnService(t, { DATABASE_URL: `postgres://${login}:${PASSWORD}@127.0.0.1:${cluster.port}/${foreign}` })
      assert.equal(await service.exited, 1, service.output())
      const out = service.output()
      assert.match(out, /^start-up failed: PostgreSQL refused a statement at start: permission denied for schema public \(SQLSTATE 42501\)/)
      assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
      assert.ok(!out.includes(PASSWORD), 'the password is never printed')
    })
  })
})

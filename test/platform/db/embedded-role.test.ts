// The embedded database's one session serves as the runtime role, and a client of its socket (the CLI, or psql
// typed by an operator) cannot leave it as anything else: the server's role is put back after each connection.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { it } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../../src/platform/db/database.ts'
import { SOCKET_PORT } from '../../../src/platform/db/embedded-socket.ts'
import { migrate } from '../../../src/platform/db/migrate.ts'
import { RUNTIME_ROLE } from '../../../src/platform/db/runtime-role.ts'
import { defer } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'

it('a socket client\'s RESET ROLE does not outlive its connection: the server goes on as the runtime role', async (t) => {
  const dir = join(tempDir('embedded-role'), 'pglite')
  const db = await openDatabase({ dataDir: dir, serveSocket: true })
  defer(t, () => db.close())
  await migrate(db)
  const serving = async () => (await db.rawTransaction((tx) => tx.query<{ u: string }>('SELECT current_user AS u')))[0]!.u
  assert.equal(await serving(), RUNTIME_ROLE)

  const client = new pg.Client({ host: dir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' })
  await client.connect()
  await client.query('RESET ROLE')
  assert.equal((await client.query<{ u: string }>('SELECT current_user AS u')).rows[0]!.u, 'postgres', 'the operator\'s own session may')
  await client.end()

  assert.equal(await serving(), RUNTIME_ROLE)
})

// Issue 31 item 16, on the configured database: the CLI names a PostgreSQL database on stderr (never its password),
// and builds no link from a guessed address. The embedded databases the CLI makes or refuses to make (whatever
// DATABASE_URL says, so in the embedded suite alone): which-database.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { runCli } from '../../src/cli/commands.ts'
import { usingPostgres } from '../helpers/database.ts'
import { useTestDatabase } from '../helpers/fixture.ts'
import { tempDir } from '../helpers/temp.ts'

/** Runs the CLI with exactly `env`, opening the database as it does on its own; stdout and stderr apart. */
async function cli(env: Record<string, string>, ...argv: string[]) {
  const stdout: string[] = []
  const stderr: string[] = []
  const code = await runCli(argv, { log: (s) => stdout.push(...s.split('\n')), error: (s) => stderr.push(...s.split('\n')) }, env)
  return { code, stdout, stderr }
}

describe('the links the CLI builds', () => {
  const tdb = useTestDatabase()
  /** As `cli`, on the test's database (no running server lent it, so none recorded an address). */
  const lent = async (env: Record<string, string>, ...argv: string[]) => {
    const lines: string[] = []
    const code = await runCli(argv, { log: (s) => lines.push(s), error: (s) => lines.push(s) }, env, { open: async () => tdb.db })
    return { code, lines }
  }

  it('come from PUBLIC_URL; without it, and with no running server to ask, the invitation is refused and nothing is written', async () => {
    const dataDir = tempDir('cli-links')
    const created = await lent({ DATA_DIR: dataDir, PUBLIC_URL: 'https://www.fomento.example' }, 'clientes', 'criar', '--nome', 'Fomento Links', '--json')
    const { id } = JSON.parse(created.lines[0]!) as { id: string }
    // Its PORT says 4100, its HOST the default: nothing says the service answers there, so no link is made from them.
    const invite = ['usuarios', 'convidar', '--cliente', id, '--email', 'ana@cliente.com.br', '--nome', 'Ana Souza', '--json']
    const refused = await lent({ DATA_DIR: dataDir, PORT: '4100' }, ...invite)
    assert.equal(refused.code, 2, refused.lines.join('\n'))
    assert.match(refused.lines.join('\n'), /^error: PUBLIC_URL is unset and no running server on this database recorded its address: set PUBLIC_URL/)
    const people = await lent({ DATA_DIR: dataDir }, 'usuarios', 'listar', '--cliente', id, '--json')
    assert.deepEqual(JSON.parse(people.lines[0]!), [], 'nobody was invited')

    const sent = await lent({ DATA_DIR: dataDir, PORT: '4100', PUBLIC_URL: 'https://www.fomento.example' }, ...invite)
    assert.equal(sent.code, 0, sent.lines.join('\n'))
    const { id: usuario, convite_url } = JSON.parse(sent.lines[0]!) as { id: string, convite_url: string }
    assert.match(convite_url, /^https:\/\/www\.fomento\.example\/conta\/ativar\?convite=fct_inv_/)

    const again = await lent({ DATA_DIR: dataDir }, 'usuarios', 'reenviar-convite', usuario, '--cliente', id)
    assert.equal(again.code, 2, again.lines.join('\n'))
    assert.match(again.lines.join('\n'), /^error: PUBLIC_URL is unset/)
  })
})

describe('the CLI on PostgreSQL', { skip: !usingPostgres && 'PostgreSQL only (DATABASE_URL)' }, () => {
  const tdb = useTestDatabase()

  it('names the server, user and database on stderr, never a password', async () => {
    const url = new URL(tdb.url!)
    const r = await cli({ DATA_DIR: tempDir('cli-pg'), DATABASE_URL: tdb.url! }, 'clientes', 'listar', '--json')
    assert.equal(r.code, 0, r.stderr.join('\n'))
    url.password = ''
    url.search = ''
    assert.deepEqual(r.stderr, [`database: PostgreSQL ${url} (DATABASE_URL${new URL(tdb.url!).password ? ', its password not shown' : ''})`])
    assert.deepEqual(JSON.parse(r.stdout.join('\n')), [])
  })
})

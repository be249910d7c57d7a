// Every built entry point run as a deploy lays it out: the release in a directory whose path has a space, reached
// through a symlink (`current` → the release), from another working directory. The CLI once compared
// `import.meta.url` with `argv[1]` textually, and through such a path printed nothing and exited 0 without running.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { before, after, describe, it } from 'node:test'
import { builtEnv, runBuilt } from '../helpers/built-process.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { tempDir } from '../helpers/temp.ts'

const ROOT = resolve(import.meta.dirname, '../..')

describe('the built entry points through a symlinked release directory with a space in its path', () => {
  const base = tempDir('entry')
  const release = join(base, 'releases', 'versão 1')
  const current = join(base, 'current')
  const dataDir = join(base, 'data dir')
  let database: TestDatabase | undefined
  // On PostgreSQL a database of its own; on PGlite the embedded one in DATA_DIR, made by the CLI's migrate.
  const env = () => builtEnv({ DATA_DIR: dataDir, DATABASE_URL: database?.url, MAIL_SANDBOX: 'on', HOST: '127.0.0.1', PORT: '0' })
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(current, 'dist/cli/main.js'), ...args], { cwd: base, env: env(), encoding: 'utf8', timeout: 120_000 })

  before(async () => {
    // The release as the image holds it: dist/ copied, the installed packages and content beside it.
    mkdirSync(release, { recursive: true })
    cpSync(join(ROOT, 'dist'), join(release, 'dist'), { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(release, 'package.json'))
    symlinkSync(join(ROOT, 'node_modules'), join(release, 'node_modules'))
    symlinkSync(join(ROOT, 'content'), join(release, 'content'))
    symlinkSync(release, current)
    if (process.env.DATABASE_URL) database = await createTestDatabase()
  })
  after(async () => { await database?.dispose() })

  it('the CLI prints its help and exits 0', () => {
    const help = cli('help')
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /^Usage: npm run cli -- <command> \[options\]/)
    assert.match(help.stdout, /migrate {2,}apply pending database migrations/)
  })

  it('the CLI refuses an unknown command with exit 2, naming it', () => {
    const unknown = cli('nao-existe')
    assert.equal(unknown.status, 2, unknown.stdout)
    assert.match(unknown.stderr, /^error: unknown command "nao-existe"\nsee: npm run cli -- help/)
  })

  it('the CLI runs a command that reaches the database (migrate)', () => {
    const migrate = cli('migrate')
    assert.equal(migrate.status, 0, migrate.stderr)
    assert.match(migrate.stdout, /^(applied: \S+|database is up to date)/)
  })

  it('the delivery worker starts, and stops with 0 on SIGTERM', async (t) => {
    const worker = runBuilt(t, join(current, 'dist/worker-main.js'), [], env(), base)
    await worker.waitFor(/"msg":"delivery worker started"/, 'the worker started')
    worker.child.kill('SIGTERM')
    assert.equal(await worker.exited, 0, worker.output())
  })

  it('the server starts, answers, and stops with 0 on SIGTERM', async (t) => {
    const server = runBuilt(t, join(current, 'dist/main.js'), [], env(), base)
    const [, url] = await server.waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/, 'listening')
    assert.equal((await fetch(`${url}/api/health`)).status, 200)
    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0, server.output())
  })
})

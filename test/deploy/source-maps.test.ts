// The built service started as the image starts it (the runtime stage's CMD and NODE_OPTIONS), made to fail a
// request for a reason of its own (the runtime role loses the function login calls): the 500's log line names
// TypeScript files and lines, not dist/'s JavaScript, so an operator can read an `erro_interno` without a build.
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'
import { dockerfileStages, execForm, keyword, properties, ROOT } from './dockerfile-stages.ts'

const runtime = dockerfileStages().stages.at(-1)!

describe('an internal error of the built service, as the image runs it', { timeout: 180_000 }, () => {
  const dataDir = tempDir('srcmap')
  let child: ChildProcess | undefined
  after(() => { if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })

  before(() => {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 })
    assert.equal(built.status, 0, `npm run build failed:\n${built.stderr}`)
  })

  it('logs the frames of an erro_interno as src/*.ts lines', async () => {
    const cmd = execForm(keyword(runtime, 'CMD')[0]!)!
    assert.equal(cmd[0], 'node')
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production',
      NODE_OPTIONS: properties(runtime, 'ENV').get('NODE_OPTIONS') ?? '',
      HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, AMBIENTE: 'sandbox', LOG_FORMAT: 'json',
    }
    child = spawn(process.execPath, cmd.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout!.on('data', (d) => { out += d })
    child.stderr!.on('data', (d) => { out += d })
    const running = child
    const base = await until('the "Server listening at" line', () => {
      if (running.exitCode !== null) throw new Error(`exited ${running.exitCode}:\n${out}`)
      return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
    }, 120_000)

    // The embedded database's socket (what the CLI uses) lets the schema's owner take login's function away.
    const owner = new pg.Client({ host: join(dataDir, 'pglite'), user: 'postgres', database: 'postgres' })
    await owner.connect()
    try {
      await owner.query('RESET ROLE')
      await owner.query('REVOKE EXECUTE ON FUNCTION autentica_login FROM PUBLIC, fct_servico')
    } finally {
      await owner.end()
    }

    const res = await fetch(`${base}/conta/entrar`, {
      method: 'POST', redirect: 'manual',
      headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=pessoa%40example.com&senha=uma-senha-qualquer-longa',
    })
    assert.equal(res.status, 500)
    const line = await until('the "unexpected error" log line', () => out.split('\n').filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string, frames?: string, code?: string })
      .find((l) => l.msg === 'unexpected error'))
    assert.equal(line.code, '42501')
    assert.match(line.frames ?? '', /\/src\/auth\/users\/store\.ts:\d+:\d+\)/, line.frames)
    assert.match(line.frames ?? '', /\/src\/account-web\/login-routes\.ts:\d+:\d+\)/, line.frames)
    assert.doesNotMatch(line.frames ?? '', /\/dist\/(?!vendor)[^)]*\.js:/, 'no frame of our own code in dist/')

    running.kill('SIGTERM')
    await until('the process to exit', () => running.exitCode !== null || running.signalCode !== null, 20_000)
  })
})

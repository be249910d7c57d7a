// The built service started as the image starts it (the runtime stage's CMD and NODE_OPTIONS), made to fail a
// request for a reason of its own (the runtime role loses the function login calls): the 500's log line names
// TypeScript files and lines, not dist/'s JavaScript, so an operator can read an `erro_interno` without a build.
import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'
import { buildDist, dockerfileStages, execForm, keyword, properties, ROOT, startListening } from './dockerfile-stages.ts'

const runtime = dockerfileStages().stages.at(-1)!

describe('an internal error of the built service, as the image runs it', { timeout: 180_000 }, () => {
  const dataDir = tempDir('srcmap')
  let child: ChildProcess | undefined
  after(() => { if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })

  before(buildDist)

  it('logs the frames of an erro_interno as src/*.ts lines', async () => {
    const cmd = execForm(keyword(runtime, 'CMD')[0]!)!
    assert.equal(cmd[0], 'node')
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production',
      NODE_OPTIONS: properties(runtime, 'ENV').get('NODE_OPTIONS') ?? '',
      HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, AMBIENTE: 'sandbox', LOG_FORMAT: 'json',
    }
    const started = await startListening(cmd.slice(1), { cwd: ROOT, env }, 120_000)
    child = started.child
    const { base, child: running } = started

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
    const line = await until('the "unexpected error" log line', () => started.output().split('\n').filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string, frames?: string, code?: string })
      .find((l) => l.msg === 'unexpected error'))
    assert.equal(line.code, '42501')
    assert.match(line.frames ?? '', /\/src\/modules\/credentials\/users\/store\.ts:\d+:\d+\)/, line.frames)
    assert.match(line.frames ?? '', /\/src\/modules\/account\/web\/login-routes\.ts:\d+:\d+\)/, line.frames)
    assert.doesNotMatch(line.frames ?? '', /\/dist\/(?!vendor)[^)]*\.js:/, 'no frame of our own code in dist/')

    running.kill('SIGTERM')
    await until('the process to exit', () => running.exitCode !== null || running.signalCode !== null, 20_000)
  })
})

// The image's runtime stage run as a script (no container engine here): the files its COPY lines take,
// its `npm ci` line (production dependencies only), then its CMD with the build stamps in the environment:
// the service answers its probes and /api/version, and SIGTERM stops it with exit code 0.
import assert from 'node:assert/strict'
import { execFile, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import type { Copy } from 'dockerfile-ast'
import { until } from '../helpers/wait.ts'
import { buildDist, dockerfileStages, execForm, keyword, ROOT, startListening } from './dockerfile-stages.ts'

const STAMPS = { APP_VERSION: '9.8.7', APP_COMMIT: 'abc1234', APP_BUILD_TIME: '2026-11-23T10:00:00Z', APP_SCHEMA_VERSION: '0007' }
const { stages } = dockerfileStages()
const [build, runtime] = [stages[0]!, stages.at(-1)!]
const workdir = (stage: typeof build) => keyword(stage, 'WORKDIR').at(-1)?.getArgumentsContent()?.trim()

/** The runtime stage's COPY lines, applied to `dir` (the image's WORKDIR): the build stage's output is our dist/. */
function copyLikeTheImage(dir: string): void {
  assert.equal(workdir(build), '/app')
  assert.equal(workdir(runtime), '/app')
  for (const copy of keyword(runtime, 'COPY') as Copy[]) {
    const args = copy.getArguments().map((a) => a.getValue())
    const dest = join(dir, args.pop()!)
    const fromBuild = copy.getFromFlag()?.getValue() === 'build'
    for (const source of args) {
      const from = fromBuild ? join(ROOT, source.replace(/^\/app\//, '')) : join(ROOT, source)
      assert.ok(existsSync(from), `COPY source ${source} exists (${from})`)
      const into = args.length > 1 || dest.endsWith('/') ? join(dest, basename(source)) : dest
      cpSync(from, into, { recursive: true })
    }
  }
}

/** The runtime stage's `npm ci …` (the first command of its RUN line), offline-first since the cache is warm. */
function runtimeInstallArgs(): string[] {
  const line = keyword(runtime, 'RUN').map((i) => i.getArgumentsContent() ?? '').find((r) => r.startsWith('npm ci'))
  assert.ok(line, 'the runtime stage runs npm ci')
  return [...line.split('&&')[0]!.trim().split(/\s+/).slice(1), '--prefer-offline']
}

/** The environment of the image: nothing of this shell's (no DATABASE_URL, no npm_* of the test run). */
const imageEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', ...extra })

function exited(child: ChildProcess, ms: number): Promise<{ code: number | null, signal: string | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode })
    const timer = setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms)
    child.once('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal }) })
  })
}

describe('the runtime stage, run as a script', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'fps-image-'))
  // The children's own temporary files go inside `dir`, so they are removed with it.
  const tmp = join(dir, '.tmp')
  mkdirSync(tmp)
  let child: ChildProcess | undefined
  after(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })

  before(buildDist)

  it('installs production dependencies only, starts, answers its probes and version, and exits 0 on SIGTERM', async () => {
    copyLikeTheImage(dir)
    const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)))
    await promisify(execFile)('npm', runtimeInstallArgs(), {
      cwd: dir, env: { ...npmEnv, NODE_ENV: 'production', TMPDIR: tmp }, timeout: 240_000, maxBuffer: 16 << 20,
    })
      .catch((err: { stderr?: string }) => assert.fail(`npm ci --omit=dev failed:\n${err.stderr ?? String(err)}`))
    for (const devOnly of ['typescript', 'tsx', 'esbuild', 'eslint', 'pino-pretty', 'dockerfile-ast']) {
      assert.ok(!existsSync(join(dir, 'node_modules', devOnly)), `${devOnly} (a dev dependency) is not installed`)
    }
    assert.ok(existsSync(join(dir, 'node_modules/fastify')), 'production dependencies are installed')
    assert.ok(!existsSync(join(dir, 'src')), 'no TypeScript source in the image')

    const dataDir = join(dir, 'data')
    mkdirSync(dataDir)
    const cmd = execForm(keyword(runtime, 'CMD')[0]!)!
    assert.equal(cmd[0], 'node')
    const started = await startListening(cmd.slice(1), {
      cwd: dir, env: imageEnv({ ...STAMPS, TMPDIR: tmp, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, AMBIENTE: 'sandbox' }),
    }, 90_000)
    child = started.child
    const { base, child: running } = started

    const ok = (path: string) => until(`200 from ${path}`, () => fetch(base + path).then((r) => r.status === 200, () => false), 30_000)
    await ok('/api/health')
    await ok('/api/health/ready')
    const version = await fetch(`${base}/api/version`)
    assert.equal(version.status, 200)
    assert.deepEqual(await version.json(), {
      versao: STAMPS.APP_VERSION, commit: STAMPS.APP_COMMIT, ambiente: 'sandbox',
      build_em: STAMPS.APP_BUILD_TIME, schema_versao: STAMPS.APP_SCHEMA_VERSION,
    })
    // The site renders from content/, which the image must carry.
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } })
    assert.equal(page.status, 200)

    running.kill('SIGTERM')
    const { code, signal } = await exited(running, 15_000)
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, started.output().slice(-2000))
    assert.match(started.output(), /"msg":"stopped"/)
  })
})

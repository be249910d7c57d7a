// The fuzz suite (`npm run test:fuzz`, kept out of `npm test`): over 10,000 generated requests, as raw bytes, to
// a real listening server on a test database, across every public endpoint and site page. Zero 5xx, every
// /api answer as the contract says, the server still up, its heap after GC not growing without bound.
// The seed is printed; FUZZ_SEED=<seed> replays a failure (FUZZ_BATCHES scales the run).
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import type { App } from '../../src/app.ts'
import { createTestApp } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { rawRequest } from '../helpers/raw-http.ts'
import { contractFrom, type Contract } from './contract.ts'
import { requests, serialize, type FuzzRequest } from './requests.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 7_2024)
const BATCH = 20
const BATCHES = Number(process.env.FUZZ_BATCHES ?? 520) // 10,400 requests with limits lifted
const LIMITED_BATCHES = Math.max(50, Math.ceil(BATCHES / 8)) // and some with the real per-IP budgets
const HEAP_GROWTH_BOUND = 64 * 1024 * 1024
console.log(`fuzz: seed ${SEED}, ${BATCHES * BATCH} + ${LIMITED_BATCHES * BATCH} requests (replay with FUZZ_SEED=${SEED})`)

const gc: () => void = globalThis.gc ?? (() => { setFlagsFromString('--expose-gc'); return runInNewContext('gc') as () => void })()

function heapAfterGc(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Error lines of the server's log, so a 5xx comes with its cause. */
function errorLog(into: string[]) {
  return { level: 'error', stream: new Writable({ write(chunk, _enc, done) { if (into.length < 50) into.push(String(chunk)); done() } }) }
}

function describeRequest(req: FuzzRequest): string {
  const text = serialize(req).toString('latin1')
  return JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}… (${text.length} bytes)` : text)
}

describe('fuzz: generated hostile requests against a listening server', () => {
  let tdb: TestDatabase
  const apps: App[] = []
  const dataDirs: string[] = []
  const serverErrors: string[] = []
  let contract: Contract
  let assets: string[]

  async function listening(env: Record<string, string>): Promise<number> {
    const dataDir = mkdtempSync(join(tmpdir(), 'fps-fuzz-'))
    dataDirs.push(dataDir)
    const app = await createTestApp({
      db: tdb.db,
      // A loaded machine must not turn into 503s: the database is up throughout.
      env: { DATA_DIR: dataDir, MAIL_WORKER: 'off', DB_TIMEOUT_MS: '10000', ...env },
      deps: { logger: errorLog(serverErrors) },
    })
    apps.push(app)
    await app.listen({ host: '127.0.0.1', port: 0 })
    return (app.server.address() as AddressInfo).port
  }

  before(async () => {
    tdb = await createTestDatabase()
  })
  after(async () => {
    for (const app of apps) await app.close()
    await tdb?.dispose()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  })

  /** Sends one batch at once; returns what broke the contract, with the request that did it. */
  async function runBatch(port: number, batch: FuzzRequest[], seen: Map<number | null, number>): Promise<string[]> {
    const results = await Promise.all(batch.map(async (req) => {
      try {
        const { response } = await rawRequest(port, serialize(req), { method: req.method, endAfterWrite: req.framing === 'short', timeoutMs: 20_000 })
        return { req, response }
      } catch (err) {
        throw new Error(`${(err as Error).message}\n  request: ${describeRequest(req)}`, { cause: err })
      }
    }))
    const problems: string[] = []
    for (const { req, response } of results) {
      seen.set(response?.status ?? null, (seen.get(response?.status ?? null) ?? 0) + 1)
      // Only a request broken at the wire may be dropped without an answer.
      const problem = response ? contract(req.method, req.target, response) : req.kind === 'hostile' ? null : 'closed without an answer'
      if (problem) problems.push(`${problem}\n  request: ${describeRequest(req)}`)
    }
    // A 500 nobody saw (its client had gone) is still a 500: the server's error log must stay empty.
    if (serverErrors.length) problems.push(`the server logged errors:\n${serverErrors.splice(0).join('')}`)
    return problems
  }

  async function fuzz(port: number, seed: number, batches: number): Promise<Map<number | null, number>> {
    const seen = new Map<number | null, number>()
    const details = await fc.check(fc.asyncProperty(fc.array(requests(assets), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const problems = await runBatch(port, batch, seen)
      if (problems.length) throw new Error(problems.join('\n'))
    }), { seed, numRuns: batches, endOnFailure: !process.env.FUZZ_SHRINK })
    // fast-check's own report prints every generated request in full: the problems say what matters.
    if (details.failed) {
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
      assert.fail(`batch ${details.numRuns} of seed ${seed} (path ${details.counterexamplePath}):\n${cause}`)
    }
    return seen
  }

  async function alive(port: number) {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) })
    assert.equal(res.status, 200, 'the server still answers')
    await res.arrayBuffer()
  }

  it(`${BATCHES * BATCH} requests with the rate limits lifted: no 5xx, /api as the contract says, heap bounded`, async () => {
    const port = await listening({ RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1' })
    const base = `http://127.0.0.1:${port}`
    const doc = await (await fetch(`${base}/openapi.json`)).json()
    contract = contractFrom(doc)
    assets = [...new Set((await (await fetch(`${base}/`)).text()).match(/\/assets\/[\w.-]+/g) ?? [])]
    assert.ok(assets.length >= 2, 'the home page links its assets')

    // Warm up (JIT, caches rendered once, pools) before the heap is measured.
    await fuzz(port, SEED + 1, 25)
    const heapBefore = heapAfterGc()
    const seen = await fuzz(port, SEED, BATCHES)
    const heapAfter = heapAfterGc()
    await alive(port)

    console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries(seen))}; heap after GC ${mb(heapBefore)} → ${mb(heapAfter)}`)
    assert.ok(heapAfter - heapBefore < HEAP_GROWTH_BOUND, `heap grew ${mb(heapAfter - heapBefore)} over the run`)
    // The run exercised routes, not only refusals.
    for (const status of [200, 202, 400, 401, 404, 405, 413, 422]) assert.ok((seen.get(status) ?? 0) > 0, `no ${status} in the run`)
    assert.equal(seen.get(429) ?? 0, 0, 'limits were lifted for this run')
  })

  it(`${LIMITED_BATCHES * BATCH} requests with the real per-IP limits: the same, and 429s with Retry-After`, async () => {
    const port = await listening({})
    const seen = await fuzz(port, SEED + 2, LIMITED_BATCHES)
    await alive(port).catch(async () => {
      // /api/health may itself be over budget by now: the site's home page is not rate limited.
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5000) })
      assert.equal(res.status, 200)
    })
    console.log(`fuzz (limited): statuses ${JSON.stringify(Object.fromEntries(seen))}`)
    assert.ok((seen.get(429) ?? 0) > 0, 'the budgets were reached')
  })
})

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

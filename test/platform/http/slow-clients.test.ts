// Slow clients: hundreds of slowloris connections (headers trickled a line at a time, never finished) do not
// hold the instance, are cut after HEADERS_TIMEOUT_MS with 408 {"detail":"tempo_esgotado"}, and
// MAX_CONNECTIONS caps what one instance keeps open. Parser-level refusals answer the contract's JSON too.
import assert from 'node:assert/strict'
import net from 'node:net'
import { describe, it, type TestContext } from 'node:test'
import type { App } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { defer, testApp, useTestDatabase } from '../../helpers/fixture.ts'
import { parseResponse, rawRequest } from '../../helpers/raw-http.ts'
import { until } from '../../helpers/wait.ts'

const HEADERS_TIMEOUT_MS = 2000
const SLOW_CLIENTS = 300

type Slow = { socket: net.Socket, opened: number, closedAt?: number, received: Buffer[], ticker?: NodeJS.Timeout }

/** A client that starts a request and then sends one more header line every `everyMs`, forever. */
function slowloris(port: number, everyMs: number, into: Slow[]): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    const slow: Slow = { socket, opened: Date.now(), received: [] }
    into.push(slow)
    socket.on('data', (chunk) => slow.received.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      slow.closedAt = Date.now()
      clearInterval(slow.ticker)
    })
    socket.once('connect', () => {
      slow.opened = Date.now()
      socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
      let n = 0
      slow.ticker = setInterval(() => { if (socket.writable) socket.write(`X-Slow-${n++}: ${'a'.repeat(10)}\r\n`) }, everyMs)
      resolve(slow)
    })
    socket.once('error', reject)
  })
}

function closeAll(clients: Slow[]) {
  for (const c of clients) {
    clearInterval(c.ticker)
    c.socket.destroy()
  }
}

describe('slow clients', () => {
  const tdb = useTestDatabase()

  /** An app of the test's own, listening; it closes when the test ends. */
  async function listening(t: TestContext, env: Record<string, string>): Promise<{ app: App, port: number }> {
    const app = await testApp(t, { db: tdb.db, env: { RATE_LIMIT_ALLOWLIST: '127.0.0.1', MAIL_WORKER: 'off', ...env }, listen: true })
    return { app, port: (app.server.address() as net.AddressInfo).port }
  }

  it(`${SLOW_CLIENTS} slowloris connections: normal requests still answer, the slow ones are cut after the header timeout`, async (t) => {
    const { port } = await listening(t, { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) })
    const mine: Slow[] = []
    defer(t, () => closeAll(mine))
    await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => slowloris(port, 500, mine)))
    assert.equal(mine.filter((c) => c.closedAt !== undefined).length, 0, 'every slow client is connected and trickling')

    // While all of them hold a connection: a blocked server would leave these hanging. The bound is generous
    // (a correctness bound on a loaded machine, not a measure of speed).
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) })
      assert.equal(res.status, 200)
      await res.arrayBuffer()
      const page = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })
      assert.equal(page.status, 200)
      await page.arrayBuffer()
    }

    await until('the server to close every slow connection', () => mine.every((c) => c.closedAt !== undefined), 20_000)
    for (const c of mine) {
      const lived = c.closedAt! - c.opened
      assert.ok(lived >= HEADERS_TIMEOUT_MS - 200, `a slow connection lived ${lived} ms: cut before its header deadline`)
      assert.ok(lived < HEADERS_TIMEOUT_MS + 8000, `a slow connection lived ${lived} ms: not cut near its header deadline`)
      const parsed = parseResponse(Buffer.concat(c.received))
      assert.equal(parsed?.response.status, 408)
      assert.deepEqual(JSON.parse(parsed!.response.body.toString()), { detail: 'tempo_esgotado' })
    }
  })

  it('MAX_CONNECTIONS: connections over the cap are closed at once; room frees as slow ones are cut', async (t) => {
    const { port } = await listening(t, { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), MAX_CONNECTIONS: '20' })
    const mine: Slow[] = []
    defer(t, () => closeAll(mine))
    await Promise.all(Array.from({ length: 20 }, () => slowloris(port, 500, mine)))
    // The 21st is accepted by the kernel and closed by Node without a byte.
    const over = await rawRequest(port, Buffer.from('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    assert.equal(over.response, null)
    assert.equal(over.raw.length, 0)
    await until('the slow connections to be cut', () => mine.every((c) => c.closedAt !== undefined), 20_000)
    const after = await rawRequest(port, Buffer.from('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    assert.equal(after.response?.status, 200)
  })

  it('refusals of the HTTP parser answer {"detail": code} (400, 431), as every other error', async (t) => {
    const { port } = await listening(t, {})
    const cases: [string, number, string][] = [
      ['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n', 400, 'requisicao_invalida'],
      ['POST /api/site/contato HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}', 400, 'requisicao_invalida'],
      ['POST /api/site/contato HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked, gzip\r\n\r\n', 400, 'requisicao_invalida'],
      [`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'cabecalho_muito_grande'],
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'requisicao_invalida'],
      ['GET /api/health HTTP/1.1\r\nAccept: */*\r\nConnection: close\r\n\r\n', 400, 'requisicao_invalida'], // no Host
    ]
    for (const [request, status, detail] of cases) {
      const { response } = await rawRequest(port, Buffer.from(request, 'latin1'))
      assert.equal(response?.status, status, JSON.stringify(request.slice(0, 80)))
      assert.match(response!.headers['content-type'] ?? '', /^application\/json/)
      assert.deepEqual(JSON.parse(response!.body.toString()), { detail })
    }
  })

  it('an Expect header other than 100-continue gets the ordinary answer, not a bare 417', async (t) => {
    const { port } = await listening(t, {})
    const { response } = await rawRequest(port, Buffer.from('GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n'))
    assert.equal(response?.status, 200)
    assert.deepEqual(JSON.parse(response!.body.toString()), { status: 'ok' })
    const gated = await rawRequest(port, Buffer.from('GET /api/x HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'))
    assert.equal(gated.response?.status, 401)
    assert.deepEqual(JSON.parse(gated.response!.body.toString()), { detail: 'nao_autenticado' })
  })

  it('the limits come from the environment, and a header deadline past the request deadline is refused', () => {
    const config = loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000', KEEP_ALIVE_TIMEOUT_MS: '65000', MAX_CONNECTIONS: '500' })
    assert.deepEqual(config.http, { headersTimeoutMs: 5000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 65_000, maxConnections: 500 })
    assert.deepEqual(loadConfig({}).http, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000, maxConnections: 2048 })
    assert.throws(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' }), /HEADERS_TIMEOUT_MS \(40000\) must not exceed REQUEST_TIMEOUT_MS/)
    assert.throws(() => loadConfig({ MAX_CONNECTIONS: '0' }), /MAX_CONNECTIONS must be a whole number/)
  })
})

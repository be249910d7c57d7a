// A client that sends a request and resets the connection at once: the request may still be parsed after its
// socket is gone (no remote address). It is dropped quietly, never an "unexpected error" (a 500 nobody sees).
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import net from 'node:net'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import type { App } from '../../src/app.ts'
import { createTestApp } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

describe('clients that go away mid-request', () => {
  let tdb: TestDatabase
  let app: App
  let port: number
  const errors: string[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'fps-gone-'))
  before(async () => {
    tdb = await createTestDatabase()
    const stream = new Writable({ write(chunk, _enc, done) { errors.push(String(chunk)); done() } })
    app = await createTestApp({ db: tdb.db, env: { MAIL_WORKER: 'off', DATA_DIR: dataDir }, deps: { logger: { level: 'error', stream } } })
    await app.listen({ host: '127.0.0.1', port: 0 })
    port = (app.server.address() as net.AddressInfo).port
  })
  after(async () => {
    await app?.close()
    await tdb?.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('pipelined requests whose connection is reset log no error', async () => {
    const request = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'
    await Promise.all(Array.from({ length: 200 }, () => new Promise<void>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' })
      socket.on('error', () => {})
      socket.on('close', () => resolve())
      socket.on('connect', () => socket.write(request.repeat(5) + 'POST /api/site/contato HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}', () => socket.resetAndDestroy()))
    })))
    // The server still answers (the site's pages are not rate limited; /api/health may be over budget by now).
    const res = await fetch(`http://127.0.0.1:${port}/`)
    assert.equal(res.status, 200)
    await res.arrayBuffer()
    assert.deepEqual(errors, [])
  })
})

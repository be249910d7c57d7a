// A client that sends a request and resets the connection at once: the request may still be parsed after its
// socket is gone (no remote address). It is dropped quietly, never an "unexpected error" (a 500 nobody sees).
import assert from 'node:assert/strict'
import net from 'node:net'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'

describe('clients that go away mid-request', () => {
  const errors: object[] = []
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, logs: errors, logLevel: 'error', listen: true })

  it('pipelined requests whose connection is reset log no error', async () => {
    const request = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'
    const port = Number(new URL(ctx.base).port)
    await Promise.all(Array.from({ length: 200 }, () => new Promise<void>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' })
      socket.on('error', () => {})
      socket.on('close', () => resolve())
      socket.on('connect', () => socket.write(
        request.repeat(5) + 'POST /api/site/contato HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
        () => socket.resetAndDestroy(),
      ))
    })))
    // The server still answers (the site's pages are not rate limited; /api/health may be over budget by now).
    const res = await fetch(`${ctx.base}/`)
    assert.equal(res.status, 200)
    await res.arrayBuffer()
    assert.deepEqual(errors, [])
  })
})

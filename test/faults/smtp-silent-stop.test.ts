// A mail provider that accepts the connection and then says nothing: a SIGTERM while the worker waits on it still
// ends the process with 0 inside its grace. The worker gives up waiting for the message in hand (its lease hands
// it to a later attempt) instead of holding the stop until the SMTP timeout, which close-with-grace cuts with exit 1.
import assert from 'node:assert/strict'
import net from 'node:net'
import { describe, it } from 'node:test'
import { contactBody } from '../helpers/app.ts'
import { defer, useTestDatabase } from '../helpers/fixture.ts'
import { spawnService, waitForOutput } from '../helpers/service-process.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

describe('SIGTERM while a message waits on a silent SMTP server', () => {
  const tdb = useTestDatabase()

  it('exits 0, saying the message in hand is left to a later attempt', async (t) => {
    const sockets = new Set<net.Socket>()
    const silent = net.createServer((s) => { sockets.add(s); s.on('error', () => {}) })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    defer(t, async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    })
    const port = (silent.address() as net.AddressInfo).port
    const service = await spawnService(t, {
      ...(tdb.url ? { DATABASE_URL: tdb.url } : { DATA_DIR: tempDir('silent-smtp') }),
      SMTP_URL: `smtp://127.0.0.1:${port}/?ignoreTLS=true`, MAIL_POLL_MS: '50', RATE_LIMIT_ALLOWLIST: '127.0.0.1/32',
    })
    await waitForOutput(service, /"msg":"service ready"/)
    await until('the channel\'s verification connected', () => sockets.size >= 1 || undefined)
    const res = await fetch(`${service.base}/api/site/contato`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
    })
    assert.equal(res.status, 202)
    // The channel's verification at start holds the first connection (silent too); the worker's send the second.
    await until('the worker connected to the silent server', () => sockets.size >= 2 || undefined)
    service.child.kill('SIGTERM')
    assert.equal(await service.exited, 0, service.output())
    assert.match(service.output(), /stopping with a message still being sent/)
  })
})

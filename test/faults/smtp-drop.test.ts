// The mail provider's connection cut in the middle of a message (after DATA, before the final dot): the attempt
// is recorded as postponed, the message is retried and delivered once, and nothing reaches the process (node:test
// fails a test on an uncaught error). A proxy in front of a real SMTP server cuts the first transfers.
import assert from 'node:assert/strict'
import net from 'node:net'
import { describe, it } from 'node:test'
import { eq, inArray } from 'drizzle-orm'
import { entregaTentativa, outbox } from '../../src/platform/db/schema.ts'
import { contactBody } from '../helpers/app.ts'
import { defer, testApp, useTestDatabase } from '../helpers/fixture.ts'
import { createTestSmtp } from '../helpers/smtp.ts'
import { until } from '../helpers/wait.ts'

const CUTS = 3

/**
 * Listens on a port of its own and passes SMTP through to `port`, except for the first `cuts` messages: once the
 * client has sent DATA and some of the message, both sockets are destroyed.
 */
async function cuttingProxy(port: number, cuts: number): Promise<{ port: number, cut: () => number, close: () => Promise<void> }> {
  let done = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => s.destroy())
    }
    upstream.pipe(client)
    let sent = ''
    let inData = false
    client.on('data', (chunk: Buffer) => {
      if (done < cuts) {
        sent += chunk.toString('latin1')
        if (!inData && /\r\nDATA\r\n$|^DATA\r\n$/m.test(sent)) inData = true
        else if (inData) {
          // Part of the message has arrived: pass half of it, then cut, as a dropped link does.
          upstream.write(chunk.subarray(0, Math.floor(chunk.length / 2)))
          done++
          client.destroy()
          upstream.destroy()
          return
        }
      }
      upstream.write(chunk)
    })
    client.on('end', () => upstream.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => done,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('SMTP connection dropped in the middle of a message', () => {
  const tdb = useTestDatabase()

  it(`the first ${CUTS} transfers cut: each message retried and delivered once`, async (t) => {
    const smtp = await createTestSmtp()
    await smtp.start()
    defer(t, () => smtp.stop())
    const proxy = await cuttingProxy(smtp.port, CUTS)
    defer(t, () => proxy.close())
    const app = await testApp(t, {
      db: tdb.db, contactBudget: 10_000,
      env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}/?ignoreTLS=true`, MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '100', MAIL_RETRY_MAX_MS: '400' },
    })

    const protocolos: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })
      assert.equal(res.statusCode, 202)
      protocolos.push(res.json().protocolo)
    }
    const row = async (protocolo: string) => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]!
    for (const protocolo of protocolos) await until(`${protocolo} sent`, async () => (await row(protocolo)).estado === 'enviado')

    assert.equal(proxy.cut(), CUTS, 'the transfers were cut')
    const ids = smtp.received.map((r) => r.parsed.messageId)
    for (const protocolo of protocolos) {
      assert.equal(ids.filter((id) => id?.startsWith(`<${protocolo.toLowerCase()}@`)).length, 1, `${protocolo} delivered once`)
    }
    // Each cut is an attempt recorded as postponed; each message then has one that delivered.
    const tries = await tdb.db.orm.select({ resultado: entregaTentativa.resultado }).from(entregaTentativa)
      .innerJoin(outbox, eq(outbox.id, entregaTentativa.outboxId)).where(inArray(outbox.protocolo, protocolos))
    const count = (resultado: string) => tries.filter((a) => a.resultado === resultado).length
    assert.deepEqual([count('adiado'), count('enviado'), tries.length], [CUTS, protocolos.length, CUTS + protocolos.length])
  })
})

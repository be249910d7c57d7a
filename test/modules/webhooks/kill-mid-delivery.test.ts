// A process killed (SIGKILL) while a receiver has its delivery in hand (issue 34: "the process killed mid-delivery
// loses nothing"). The built service claims the first of an operation's four events and POSTs it to a receiver that
// does not answer; the process is killed there. The delivery stays claimed (`enviando`) with its lease; once the lease
// is over another worker takes it and sends it again, then the other three in order: each event acknowledged once,
// the first one received twice with the same Webhook-Id (at least once: the receiver deduplicates by it).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readInstallationSecret } from '../../../src/modules/credentials/index.ts'
import { addressPolicy } from '../../../src/modules/webhooks/address-policy.ts'
import { WEBHOOK_KEY_LABEL } from '../../../src/modules/webhooks/module.ts'
import { secretBox } from '../../../src/modules/webhooks/secret-box.ts'
import { makeSender } from '../../../src/modules/webhooks/sender.ts'
import { WebhookWorker } from '../../../src/modules/webhooks/worker.ts'
import { derivedKey } from '../../../src/platform/lib/derived-key.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { spawnService, waitForOutput } from '../../helpers/service-process.ts'
import { tempDir } from '../../helpers/temp.ts'
import { until } from '../../helpers/wait.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, settableClock } from '../operations/helpers.ts'
import { receiver } from './receiver.ts'

const skip = onPostgresOnly('the built service and this test share one database: PostgreSQL (DATABASE_URL set)')
const quiet = { info: () => {}, warn: () => {}, error: () => {} }

describe('a process killed mid-delivery', { skip }, () => {
  const clock = settableClock(EXAMPLE_NOW)
  // This app queues events but sends none: the built service is the one killed with a delivery in hand.
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', WEBHOOK_WORKER: 'off', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, deps: { clock } })

  it('loses nothing: the claimed delivery goes again once its lease is over, then the rest in order, each acknowledged once', { timeout: 180_000 },
    async (t) => {
      const office = await backOffice(ctx.db, ctx.app, clock)
      const rec = await receiver()
      t.after(() => rec.close())
      rec.answer = () => 'hang'
      created(await office.admin.call('POST', '/api/webhooks', { url: rec.url, eventos: ['operacao.*'] }))
      await formalizedExample(office.admin.call)
      const rows = <R>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
      assert.equal((await rows('SELECT 1 FROM webhook_entregas WHERE estado = \'pendente\'')).length, 4)

      const service = await spawnService(t, { DATABASE_URL: ctx.url!, DATA_DIR: tempDir('kill-webhook'), MAIL_WORKER: 'off',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_TIMEOUT_MS: '60000' })
      await waitForOutput(service, /"msg":"service ready"/)
      await rec.count(1)
      process.kill(-service.child.pid!, 'SIGKILL')
      await service.exited
      const claimed = await rows<{ estado: string, tentativas: number }>('SELECT estado, tentativas FROM webhook_entregas ORDER BY evento_seq')
      assert.deepEqual(claimed.map((r) => r.estado), ['enviando', 'pendente', 'pendente', 'pendente'])

      rec.answer = () => ({ status: 200, body: 'ok' })
      const box = secretBox(derivedKey(await readInstallationSecret(ctx.db.orm), WEBHOOK_KEY_LABEL))
      // A worker whose lease is short: the killed process's claim is over for it at once.
      const worker = new WebhookWorker({
        db: ctx.db, box, retry: { baseMs: 10, maxMs: 20 }, leaseMs: 100, log: quiet, publicUrl: 'http://127.0.0.1',
        send: makeSender({ allowed: addressPolicy(['127.0.0.0/8']), timeoutMs: 5000, userAgent: 'test' }),
      })
      await until('all acknowledged', async () => {
        await worker.drain()
        return (await rows('SELECT 1 FROM webhook_entregas WHERE estado <> \'entregue\'')).length === 0 || undefined
      })
      const got = rec.got.map((g) => JSON.parse(g.body) as { id: string, tipo: string })
      assert.deepEqual(got.map((b) => b.tipo), ['operacao.criada', 'operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
      assert.equal(got[0]!.id, got[1]!.id)
      assert.equal(rec.got[0]!.headers['webhook-id'], rec.got[1]!.headers['webhook-id'])
      const tries = await rows<{ tentativas: number }>('SELECT tentativas FROM webhook_entregas ORDER BY evento_seq')
      assert.deepEqual(tries.map((r) => r.tentativas), [2, 1, 1, 1])
    })
})

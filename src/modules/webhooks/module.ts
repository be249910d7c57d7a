// The webhooks module (issue 34): a customer's endpoints (/api/webhooks), the events the database writes with each
// change (migration 0048), and the worker that delivers them, signed, at least once and in order per resource.
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { derivedKey } from '../../platform/lib/derived-key.ts'
import { readInstallationSecret } from '../credentials/index.ts'
import { addressPolicy } from './address-policy.ts'
import { WEBHOOK_ROUTES } from './definitions.ts'
import { webhookRoutes } from './routes.ts'
import { secretBox } from './secret-box.ts'
import { overdueJob } from './overdue.ts'
import { makeSender } from './sender.ts'
import { urlCheck } from './url-check.ts'
import { WebhookWorker } from './worker.ts'

/** The label of the key derived from the installation's secret when WEBHOOK_SECRET_KEY is unset (derived-key.ts). */
export const WEBHOOK_KEY_LABEL = 'webhook-segredos/v1'

export const webhooksModule = defineModule({
  name: 'webhooks',
  async setup({ config, db, clock, idempotency, log }) {
    const w = config.webhooks
    // Unset, the key comes from the installation's secret, so `npm start` needs nothing; but the database then holds
    // what opens the secrets it stores, which production should not accept silently.
    if (!w.secretKey && config.ambiente === 'producao') {
      log.warn('WEBHOOK_SECRET_KEY is not set: the webhooks\' signing secrets are encrypted under a key derived from the database\'s own '
        + 'installation secret, so a copy of the database opens them; set WEBHOOK_SECRET_KEY (openssl rand -hex 32)')
    }
    const key = w.secretKey ?? derivedKey(await readInstallationSecret(db.orm), WEBHOOK_KEY_LABEL)
    const box = secretBox(key)
    const allowed = addressPolicy(w.allowedNetworks)
    const production = config.ambiente === 'producao'
    const routes = webhookRoutes({
      db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura, box,
      checkUrl: urlCheck({ allowed, production }),
    })
    const worker = new WebhookWorker({
      db, box, retry: w.retry, leaseMs: w.timeoutMs * 2 + 30_000, publicUrl: config.publicUrl,
      send: makeSender({ allowed, timeoutMs: w.timeoutMs, userAgent: `fps-webhooks/${config.build.versao || 'dev'}` }),
      log: log.child({ component: 'webhooks' }),
    })
    return {
      routes,
      background: w.worker ? [{ start: () => worker.start(), stop: () => worker.stop() }] : [],
      customerApiPaths: () => pathItems(Object.values(WEBHOOK_ROUTES)),
    }
  },
  jobs: ({ db }) => [overdueJob(db)],
})

// The fuzz suites' service: the per-IP limits skip the test's address and the per-credential budget is widened,
// so every generated request reaches its route (the fuzz is about inputs, not rates); no e-mail is sent.
import { serviceConfigFile } from '../helpers/app.ts'

export const unthrottledEnv = (): Record<string, string> => ({
  MAIL_WORKER: 'off', RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { credencial: { max: 1_000_000, windowSeconds: 60 } } }),
})

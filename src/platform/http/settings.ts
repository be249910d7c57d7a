// The listener's and HTTP policy's settings: where to listen and the public origin, proxies and exempt
// addresses, cross-origin form posts, the rate-limit store and budgets, slow and idle clients.
import { isIpOrCidr } from '../lib/ip-ranges.ts'
import { int, list, text, url, withoutUserinfo } from '../settings/kinds.ts'
import type { Values } from '../settings/load.ts'
import { ConfigError } from '../lib/startup-error.ts'
import { RATE_LIMITS_SETTING } from './rate-limit-config.ts'

const IP_RANGES = { expected: 'an IP address or CIDR range', item: (s: string) => isIpOrCidr(s) ? s : undefined }

function origin(raw: string): string | undefined {
  try {
    const u = new URL(raw)
    return u.origin === raw.replace(/\/$/, '') ? u.origin : undefined
  } catch {
    return undefined
  }
}

export const HTTP_SETTINGS = {
  port: int('PORT', { default: 3000, min: 0, max: 65535, description: 'the port to listen on' }),
  host: text('HOST', { default: '127.0.0.1', description: 'the address to listen on (0.0.0.0: every interface)' }),
  publicUrl: text('PUBLIC_URL', { unset: 'http://HOST:PORT', description: 'the origin visitors use, for absolute links; set it in production' }),
  trustProxy: list('TRUST_PROXY', { ...IP_RANGES, unset: 'the socket address is the client', description: 'proxies whose X-Forwarded-For is believed' }),
  rateLimitAllowlist: list('RATE_LIMIT_ALLOWLIST', { ...IP_RANGES, unset: 'none', description: 'addresses exempt from rate limits (probes)' }),
  siteOrigins: list('SITE_ORIGINS', {
    expected: 'an origin like https://example.com.br', item: origin, unset: 'same origin only', description: 'origins allowed to post the contact form',
  }),
  redisUrl: url('REDIS_URL', {
    protocols: ['redis:', 'rediss:'], unset: 'in memory, per instance', description: 'Redis for rate-limit counters shared by every instance',
  }),
  headersTimeoutMs: int('HEADERS_TIMEOUT_MS', {
    default: 10_000, min: 500, max: 600_000, description: 'a request\'s line and headers must arrive within this',
  }),
  requestTimeoutMs: int('REQUEST_TIMEOUT_MS', { default: 30_000, min: 500, max: 3_600_000, description: 'the whole request must arrive within this' }),
  keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS', {
    default: 72_000, min: 1000, max: 3_600_000, description: 'an idle keep-alive connection is closed after this',
  }),
  maxConnections: int('MAX_CONNECTIONS', { default: 2048, min: 1, max: 1_000_000, description: 'open connections per instance' }),
  rateLimits: RATE_LIMITS_SETTING,
}

type HttpValues = Values<typeof HTTP_SETTINGS>

export function httpConfig(v: HttpValues) {
  // Node refuses a header deadline later than the whole request's.
  if (v.headersTimeoutMs > v.requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${v.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${v.requestTimeoutMs})`)
  }
  const { port, host, trustProxy, rateLimitAllowlist, siteOrigins, redisUrl, rateLimits } = v
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = v
  // Only this area's values: the caller passes every area's.
  return {
    port, host, trustProxy, rateLimitAllowlist, siteOrigins, redisUrl, rateLimits,
    publicUrl: publicUrl(v.publicUrl, host, port),
    publicUrlSet: v.publicUrl !== '',
    http: { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections },
  }
}

/** `PUBLIC_URL` as an origin (scheme, host, port; no path), or the listener's own address. */
function publicUrl(raw: string, host: string, port: number): string {
  if (!raw) {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
    return `http://${shown}:${port}`
  }
  // A value with user:password@ is not an origin, and the message must not repeat the password.
  const shown = withoutUserinfo(raw)
  let u: URL
  try { u = new URL(raw) } catch { throw new ConfigError(`PUBLIC_URL must be an origin like https://www.example.com.br, got "${shown}"`) }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || u.search || u.hash || u.pathname !== '/') {
    throw new ConfigError(`PUBLIC_URL must be an origin like https://www.example.com.br (no path, query or user), got "${shown}"`)
  }
  return u.origin
}

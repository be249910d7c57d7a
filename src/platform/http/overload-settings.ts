// Load shedding's settings (src/platform/http/overload.ts): 0 turns a check off.
import { getHeapStatistics } from 'node:v8'
import { int, optionalInt } from '../settings/kinds.ts'
import type { Values } from '../settings/load.ts'
import type { OverloadConfig } from './overload.ts'
import type { TurnsConfig } from './customer-turns.ts'

const MB = 1024 * 1024
const MEMORY = { min: 0, max: 1_048_576 }

export const OVERLOAD_SETTINGS = {
  overloadMaxEventLoopDelayMs: int('OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', {
    default: 1000, min: 0, max: 60_000, description: 'event-loop lag past which requests are shed with 503',
  }),
  // Past 90% of V8's limit, a crash on out-of-memory is near.
  overloadMaxHeapMb: optionalInt('OVERLOAD_MAX_HEAP_MB', {
    ...MEMORY, unset: '90% of V8\'s heap limit', description: 'heap used past which requests are shed',
  }),
  overloadMaxRssMb: int('OVERLOAD_MAX_RSS_MB', { ...MEMORY, default: 0, description: 'resident memory past which requests are shed' }),
  overloadSampleMs: int('OVERLOAD_SAMPLE_MS', { default: 1000, min: 10, max: 10_000, description: 'how often the pressure is sampled' }),
  // One customer's share of an instance (src/platform/http/customer-turns.ts): half of the default pool of 10.
  clienteMaxSimultaneas: int('CLIENTE_MAX_SIMULTANEAS', {
    default: 5, min: 1, max: 1000, description: 'the requests one customer runs at once on an instance; more wait their turn',
  }),
  clienteMaxNaFila: int('CLIENTE_MAX_NA_FILA', {
    default: 100, min: 0, max: 100_000, description: 'the requests of one customer that wait their turn; more are refused with 429 requisicoes_simultaneas',
  }),
  clienteEsperaMaxMs: int('CLIENTE_ESPERA_MAX_MS', {
    default: 10_000, min: 1, max: 120_000, description: 'how long a request waits its turn before it is refused with 429 requisicoes_simultaneas',
  }),
  overloadRetryAfterS: int('OVERLOAD_RETRY_AFTER_S', { default: 10, min: 1, max: 3600, description: 'the Retry-After of a shed request' }),
}

export function overloadConfig(v: Values<typeof OVERLOAD_SETTINGS>): OverloadConfig {
  const heapMb = v.overloadMaxHeapMb ?? Math.floor(getHeapStatistics().heap_size_limit * 0.9 / MB)
  return {
    maxEventLoopDelayMs: v.overloadMaxEventLoopDelayMs,
    maxHeapUsedBytes: heapMb * MB,
    maxRssBytes: v.overloadMaxRssMb * MB,
    sampleMs: v.overloadSampleMs,
    retryAfterSeconds: v.overloadRetryAfterS,
  }
}

export function turnsConfig(v: Values<typeof OVERLOAD_SETTINGS>): TurnsConfig {
  return { running: v.clienteMaxSimultaneas, waiting: v.clienteMaxNaFila, waitMs: v.clienteEsperaMaxMs }
}

// W3C Trace Context (https://www.w3.org/TR/trace-context/): a valid `traceparent` on arrival joins this request to
// the caller's trace, anything else starts a new one. Its trace id is in every log line of the request (the
// request's child logger and the access line), and the answer says where this server sits in the trace with
// Level 2's `traceresponse: 00-<trace-id>-<this server's span id>-<flags>`. When OpenTelemetry is on, its server
// span is this server's span (setSpanSource): the ids in the header and the logs are the exported ones.
import { randomFillSync } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { RequestGuard } from './request-guards.ts'

export type TraceContext = { traceId: string, spanId: string, flags: string }

/**
 * Version 00 only, exactly 55 characters, lowercase hex (the spec's own grammar), and neither id all zeros. A
 * later version's header is not understood here, so it starts a new trace rather than being half read.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/
const ZERO_TRACE = '0'.repeat(32)
const ZERO_SPAN = '0'.repeat(16)

/** The caller's trace, or undefined when the header is absent or breaks any rule. */
export function parseTraceparent(header: string | string[] | undefined): { traceId: string, parentId: string, flags: string } | undefined {
  if (typeof header !== 'string') return undefined
  const m = TRACEPARENT.exec(header)
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return undefined
  return { traceId: m[1]!, parentId: m[2]!, flags: m[3]! }
}

/** Random ids from a pool refilled 4 KiB at a time: one randomFillSync per ~170 requests, not two per request. */
const pool = Buffer.alloc(4096)
let used = pool.length
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool)
    used = 0
  }
  const hex = pool.toString('hex', used, used + bytes)
  used += bytes
  // All zeros is invalid; 2^-64 at worst, but a header we answer must never be one a caller rejects.
  return /^0+$/.test(hex) ? randomHex(bytes) : hex
}

type SpanSource = (req: IncomingMessage) => TraceContext | undefined
let spanSource: SpanSource | undefined

/** Set by the tracing set-up (src/platform/telemetry/): the active server span of a request, when there is one. */
export function setSpanSource(source: SpanSource | undefined): void {
  spanSource = source
}

const TRACE = Symbol('traceContext')
type Traced = IncomingMessage & { [TRACE]?: TraceContext }

/** The request's trace context, made once (the first of the child logger, the guard or the access log asks). */
export function traceContextOf(raw: IncomingMessage): TraceContext {
  const req = raw as Traced
  const known = req[TRACE]
  if (known) return known
  const made = spanSource?.(raw) ?? fromHeader(raw)
  req[TRACE] = made
  return made
}

function fromHeader(raw: IncomingMessage): TraceContext {
  const incoming = parseTraceparent(raw.headers.traceparent)
  // Without tracing nothing is recorded here: the caller's sampling decision is passed on as it came.
  return { traceId: incoming?.traceId ?? randomHex(16), spanId: randomHex(8), flags: incoming?.flags ?? '00' }
}

/** Every answer, errors included, says which trace and span it was. */
export const answerTraceResponse: RequestGuard = (req, reply) => {
  const t = traceContextOf(req.raw)
  reply.header('traceresponse', `00-${t.traceId}-${t.spanId}-${t.flags}`)
  return undefined
}

// W3C Trace Context: a valid traceparent's trace id is carried by every log line of the request and answered in
// traceresponse (Level 2) with this server's own span id; an absent or invalid one (each rule broken alone)
// starts a new trace.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { contactBody } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/fixture.ts'

type LogLine = Record<string, unknown> & { reqId?: string, traceId?: string, msg?: string }

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`
const TRACERESPONSE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** Each breaks exactly one rule of a version-00 traceparent; the rest is VALID's. */
const INVALID: [string, string][] = [
  ['version 01 (only 00 is understood)', `01-${TRACE_ID}-${PARENT_ID}-01`],
  ['version ff (forbidden)', `ff-${TRACE_ID}-${PARENT_ID}-01`],
  ['trace id all zeros', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
  ['trace id of 31 digits', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
  ['trace id of 33 digits', `00-${TRACE_ID}a-${PARENT_ID}-01`],
  ['trace id not hex', `00-${TRACE_ID.slice(0, 31)}g-${PARENT_ID}-01`],
  ['trace id in uppercase', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
  ['parent id all zeros', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
  ['parent id of 15 digits', `00-${TRACE_ID}-${PARENT_ID.slice(1)}-01`],
  ['parent id not hex', `00-${TRACE_ID}-${PARENT_ID.slice(0, 15)}x-01`],
  ['flags of one digit', `00-${TRACE_ID}-${PARENT_ID}-1`],
  ['flags not hex', `00-${TRACE_ID}-${PARENT_ID}-0z`],
  ['a field more (version 00 is exactly 55 characters)', `${VALID}-extra`],
  ['two headers (joined by a comma)', `${VALID}, ${VALID}`],
]

describe('W3C traceparent and traceresponse', () => {
  const logs: LogLine[] = []
  const ctx = useTestApp({ logs, logLevel: 'trace', contactBudget: 100 })

  /** Sends one request; its answer, the parts of its traceresponse and every log line of it (by its request id). */
  async function send(opts: InjectOptions): Promise<{ res: LightMyRequestResponse, trace: string[], lines: LogLine[] }> {
    const res = await ctx.app.inject(opts)
    const id = String(res.headers['x-request-id'])
    // The access line is written from onResponse, just after the answer is out.
    for (let i = 0; i < 200 && !logs.some((l) => l.reqId === id && l.msg === 'request'); i++) await sleep(5)
    const m = TRACERESPONSE.exec(String(res.headers.traceresponse))
    assert.ok(m, `traceresponse ${String(res.headers.traceresponse)}`)
    return { res, trace: m.slice(1), lines: logs.filter((l) => l.reqId === id) }
  }

  const postContact = (traceparent?: string) => send({
    method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: '192.0.2.90',
    headers: traceparent === undefined ? {} : { traceparent },
  })

  it('a valid traceparent: its trace id in every log line of the request, and traceresponse with this server\'s span id', async () => {
    const { res, trace: [traceId, spanId, flags], lines } = await postContact(VALID)
    assert.equal(res.statusCode, 202)
    assert.equal(traceId, TRACE_ID)
    assert.notEqual(spanId, PARENT_ID, 'the span id is this server\'s, not the caller\'s')
    assert.notEqual(spanId, '0'.repeat(16))
    assert.equal(flags, '01', 'the caller\'s sampling decision passed on')
    assert.ok(lines.some((l) => l.msg === 'contact accepted'), 'a line of the request\'s own logger')
    assert.ok(lines.some((l) => l.msg === 'request'), 'the access line')
    for (const line of lines) assert.equal(line.traceId, TRACE_ID, `line "${line.msg}"`)
  })

  it('every answer carries it, an error too', async () => {
    const { res, trace: [traceId], lines } = await send({ url: '/api/nao-existe', headers: { traceparent: VALID } })
    assert.equal(res.statusCode, 401)
    assert.equal(traceId, TRACE_ID)
    assert.ok(lines.length > 0)
    for (const line of lines) assert.equal(line.traceId, TRACE_ID)
  })

  it('without a traceparent a new trace id is made for each request, in its log lines and its traceresponse', async () => {
    const a = await postContact()
    const b = await postContact()
    assert.equal(a.res.statusCode, 202)
    assert.notEqual(a.trace[0], b.trace[0])
    for (const { trace: [traceId, spanId, flags], lines } of [a, b]) {
      assert.notEqual(traceId, '0'.repeat(32))
      assert.notEqual(spanId, '0'.repeat(16))
      assert.equal(flags, '00')
      assert.ok(lines.length >= 2)
      for (const line of lines) assert.equal(line.traceId, traceId, `line "${line.msg}"`)
    }
  })

  for (const [rule, header] of INVALID) {
    it(`an invalid traceparent is ignored and a new trace made: ${rule}`, async () => {
      const { res, trace: [traceId, spanId, flags], lines } = await postContact(header)
      assert.equal(res.statusCode, 202, 'the request itself is served')
      assert.notEqual(traceId, TRACE_ID)
      assert.notEqual(traceId, TRACE_ID.toUpperCase())
      assert.notEqual(traceId, '0'.repeat(32))
      assert.notEqual(spanId, PARENT_ID)
      assert.equal(flags, '00')
      assert.ok(lines.length >= 2)
      for (const line of lines) assert.equal(line.traceId, traceId, `line "${line.msg}"`)
    })
  }
})

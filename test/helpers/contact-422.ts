// The validation tests' client of POST /api/site/contato, which refuses a bad body with 422 exactly as FastAPI +
// pydantic v2 write it: {"detail":[{type, loc, msg, input, ctx?}]}, so a client written against FastAPI reads our
// errors unchanged. The expected items are pydantic's (checked against pydantic 2.13) and the JSON errors Python's
// json module's.
import assert from 'node:assert/strict'
import type { LightMyRequestResponse as Response } from 'fastify'
import type { SuiteApp } from './fixture.ts'

const URL = '/api/site/contato'
export const JSON_TYPE = { 'content-type': 'application/json' }
export const MODEL_ATTRIBUTES = 'Input should be a valid dictionary or object to extract fields from'

export type Item = { type: string, loc: (string | number)[], msg: string, input: unknown, ctx?: Record<string, unknown> }

/** Posts to the contact form of `ctx`'s app, keeping every 422 body it gets in `bodies422` (see assertNoInternals). */
export function contactClient(ctx: SuiteApp) {
  const bodies422: string[] = []

  /** Sends `payload` as is: a string or Buffer is the raw body, anything else is sent as JSON. */
  async function post(payload?: unknown, headers: Record<string, string> = JSON_TYPE): Promise<Response> {
    const raw = payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload)
    const res = await ctx.app.inject({ method: 'POST', url: URL, payload: raw as string | Buffer | undefined, headers })
    if (res.statusCode === 422) bodies422.push(res.body)
    return res
  }

  function assert422(res: Response, items: Item[]): void {
    assert.equal(res.statusCode, 422, res.body)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.deepEqual(res.json(), { detail: items })
  }

  function assert202(res: Response): void {
    assert.equal(res.statusCode, 202, res.body)
    const out = res.json()
    assert.deepEqual(Object.keys(out).sort(), ['destino', 'mensagem', 'protocolo'])
    for (const k of ['protocolo', 'destino', 'mensagem']) assert.equal(typeof out[k], 'string')
  }

  return { bodies422, post, assert422, assert202 }
}

/**
 * No 422 body carried a stack, an error class or a source path; `moreThan` is how many a file's tests must have
 * collected, so a client that stopped collecting cannot pass this check by having nothing to look at.
 */
export function assertNoInternals(bodies422: string[], moreThan: number): void {
  assert.ok(bodies422.length > moreThan, `only ${bodies422.length} answers were collected`)
  for (const body of bodies422) {
    const detail = (JSON.parse(body) as { detail: Item[] }).detail
    assert.ok(Array.isArray(detail) && detail.length > 0, body.slice(0, 300))
    for (const item of detail) {
      assert.deepEqual(Object.keys(item).filter((k) => !['type', 'loc', 'msg', 'input', 'ctx'].includes(k)), [])
      const { input: _input, ...rest } = item
      const text = JSON.stringify(rest)
      assert.doesNotMatch(text, /stack|Error\b|node_modules|\.ts:\d|\bat \S+ \(/, text)
    }
  }
}

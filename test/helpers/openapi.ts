// The published OpenAPI document as the contract tests read it: its shape, the public paths with the statuses
// each method answers, and the document as the app serves it at GET /openapi.json.
import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'

type Json = Record<string, unknown>
export type Schema = Json & {
  type?: string | string[], anyOf?: Schema[], oneOf?: Schema[], $ref?: string, format?: string
  properties?: Record<string, Schema>, required?: string[], items?: Schema, additionalProperties?: Schema | boolean
}
type Response = { description?: string, content: Record<string, { schema: Schema }> }
type Operation = { responses: Record<string, Response>, requestBody?: { required?: boolean, content: Json } }
export type Doc = {
  openapi: string, info: { title: string, version: string }, servers: { url: string }[]
  paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, Schema> }
}

/** The contract's public paths (under /api), their methods and the status codes each answers. */
export const PATHS: Record<string, Record<string, string[]>> = {
  '/health': { get: ['200', '429'] },
  '/health/ready': { get: ['200', '429', '503'] },
  '/version': { get: ['200', '429'] },
  '/status': { get: ['200', '429'] },
  '/site/contato': { post: ['202', '400', '409', '422', '429', '503'] },
  '/site/contato/assuntos': { get: ['200', '429'] },
  '/site/contato/estado': { get: ['200', '429'] },
}

export const ref = (name: string) => `#/components/schemas/${name}`

/** GET /openapi.json: a 200 in JSON, and the document it carries. */
export async function servedDocument(app: App): Promise<Doc> {
  const res = await app.inject({ url: '/openapi.json' })
  assert.equal(res.statusCode, 200)
  assert.match(String(res.headers['content-type']), /^application\/json/)
  return res.json()
}

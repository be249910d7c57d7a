// The service's TypeBox schemas as the JSON Schema an MCP tool declares (its inputSchema and outputSchema): the
// same documents the HTTP routes validate with, with the named schemas they point to ($ref `Name#`) written in
// place, since a tool's schema must stand alone. Plain data: the SDK reads them when a request first needs it
// (sdk-schemas.ts).
import type { TSchema } from 'typebox'

export type JsonSchema = Record<string, unknown>

/** A copy without `$id` and `title` (names of the HTTP document), every `$ref` to one of `named` inlined. */
export function toolSchema(schema: TSchema | object, named: TSchema[] = []): JsonSchema {
  const byRef = new Map(named.map((s) => [`${(s as { $id?: string }).$id}#`, s]))
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string') {
      const target = byRef.get(ref)
      if (!target) throw new TypeError(`no schema named by ${ref}`)
      return walk(target)
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(node)) if (k !== '$id' && k !== 'title') out[k] = walk(v)
    return out
  }
  return walk(schema) as JsonSchema
}

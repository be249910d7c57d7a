// How a route or a schema points at a named component (a schema with an $id, registered by registerOpenApi).
// A `$ref` and not the schema object itself: @fastify/swagger inlines an embedded schema, and the contract
// publishes these as #/components/schemas/<$id>. Taking the object rather than its name keeps one source
// of truth and carries the schema's static type to TypeBox's Static and to the routes' type provider.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox'

export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: unknown }).$id
  if (typeof id !== 'string') throw new TypeError('ref() takes a named schema (one with an $id)')
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` })
}

// Several statements in one round trip to PostgreSQL (Database.oneTrip, sent by pipeline.ts): a read as a
// customer (set the tenant, read) or a fire-and-forget write costs one exchange instead of one per statement
// plus BEGIN and COMMIT. Values are always bound as parameters, never written into the text.
import { createHash } from 'node:crypto'
import { is, Placeholder, SQL } from 'drizzle-orm'
import { CasingCache } from 'drizzle-orm/casing'
import pg from 'pg'
import type { BoundStatement } from './pipeline.ts'

export type { BoundStatement } from './pipeline.ts'
export type OneTripStatement = SQL | BoundStatement

const casing = new CasingCache()
const escapeName = (name: string) => `"${name.replace(/"/g, '""')}"`
const escapeString = (s: string) => pg.escapeLiteral(s)

/**
 * A statement rendered once and prepared once per connection, its values taken at each use where
 * `sql.placeholder(name)` stands: a request's hot read skips drizzle's query builder (a third of the time it
 * takes) and PostgreSQL's planning of the same text again.
 */
export function fixedStatement<K extends string>(query: SQL): (values: Record<K, unknown>) => BoundStatement {
  const names: K[] = []
  const { text } = rendered(query, (value) => {
    if (!is(value, Placeholder)) throw new TypeError('a fixed statement takes its values through sql.placeholder alone')
    names.push(value.name as K)
  })
  // Named by its text: the same text is the same prepared statement on every connection and instance.
  const name = `fixo_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`
  return (values) => ({
    text, name,
    values: names.map((key) => {
      // As drizzle's own placeholders: a value not given is a mistake, never a NULL.
      if (!Object.hasOwn(values, key)) throw new TypeError(`no value for the fixed statement's placeholder ${key}`)
      return values[key]
    }),
  })
}

/** A statement as its text and its values, unnamed unless it is a fixed statement's. */
export function boundStatement(query: OneTripStatement): BoundStatement {
  if (!is(query, SQL)) return query
  const { text, params } = rendered(query, (value) => {
    if (is(value, Placeholder)) throw new TypeError('a placeholder belongs in a fixed statement (fixedStatement)')
  })
  return { text, values: params }
}

/** `query`'s text with each parameter as `$n` (PostgreSQL's numbering), `seen` told of each value in order. */
function rendered(query: SQL, seen: (value: unknown) => void): { text: string, params: unknown[] } {
  const { sql: text, params } = query.toQuery({
    casing, escapeName, escapeString,
    escapeParam: (n: number, value: unknown) => {
      seen(value)
      return `$${n + 1}`
    },
  })
  return { text, params }
}

// Dates, times and intervals (and their arrays) as the text the server sent, as drizzle's node-postgres session
// answers them: a row read in one trip is the row `queryRows` gives for the same query.
const AS_TEXT = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL,
  1115, 1182, 1185, 1187, 1231])
/** The same for PGlite, whose drizzle session keeps the same types as text. */
export const PGLITE_ORM_PARSERS = Object.fromEntries([...AS_TEXT].map((oid) => [oid, (value: string) => value]))
export const ORM_TYPE_PARSERS = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (AS_TEXT.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)),
}

// Several statements in one round trip to PostgreSQL. node-postgres sends a parameterised query as its own
// Parse/Bind/Execute/Sync exchange and waits for each answer, so a transaction of a setting, a read and its
// COMMIT costs four round trips (and four socket writes). PostgreSQL's simple-query protocol takes several
// statements in one message and runs them as one implicit transaction, which is what a read as a customer
// (set the tenant, read) or a fire-and-forget write needs; but it takes no parameters, so each parameter is
// written into the text as a quoted literal.
//
// A quoted literal of unknown type is resolved from its context exactly as an untyped parameter is, and
// node-postgres sends every parameter as untyped text: so each value is first turned into the text node-postgres
// itself would send (`prepareValue`: dates with their offset, arrays as array literals), then quoted by
// `escapeLiteral`, which doubles quotes and, when a backslash occurs, writes the E'' form, so the text is read
// back unchanged whatever `standard_conforming_strings` says. That quoting is sound for UTF-8 text only (in a
// client encoding such as GBK a multibyte character can swallow a backslash): the pool pins client_encoding.
import { is, Placeholder, type SQL } from 'drizzle-orm'
import { CasingCache } from 'drizzle-orm/casing'
import pg from 'pg'

// node-postgres's own conversion of a parameter to the text it sends (untyped in @types/pg).
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils
const casing = new CasingCache()
const escapeName = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A statement's text with its values already written in (fixedStatement). */
export type InlinedStatement = { inlined: string }
export type OneTripStatement = SQL | InlinedStatement

/**
 * A statement rendered once, its values written in at each use where `sql.placeholder(name)` stands: a request's
 * hot read skips building its text again (a third of the time drizzle takes is its query builder).
 */
export function fixedStatement<K extends string>(query: SQL): (values: Record<K, unknown>) => InlinedStatement {
  const names: K[] = []
  // Each value's place marked with a character no SQL text holds, so a `$1` in the query's own literals stays.
  const text = query.toQuery({
    casing, escapeName, escapeString: (s: string) => pg.escapeLiteral(s),
    escapeParam: (n: number, value: unknown) => {
      if (!is(value, Placeholder)) throw new TypeError('a fixed statement takes its values through sql.placeholder alone')
      names.push(value.name as K)
      return `\u0000${n}\u0000`
    },
  }).sql
  // eslint-disable-next-line no-control-regex -- the marker is a NUL precisely because no SQL text holds one
  const parts = text.split(/\u0000(\d+)\u0000/)
  return (values) => {
    let out = parts[0]!
    for (let i = 1; i < parts.length; i += 2) {
      const name = names[Number(parts[i])]!
      // As drizzle's own placeholders: a value not given is a mistake, never a NULL.
      if (!Object.hasOwn(values, name)) throw new TypeError(`no value for the fixed statement's placeholder ${name}`)
      out += literal(values[name]) + parts[i + 1]!
    }
    return { inlined: out }
  }
}

/** A statement as one text with its parameters written in as literals. */
export function inlineStatement(query: OneTripStatement): string {
  if ('inlined' in query) return query.inlined
  return query.toQuery({
    casing, escapeName, escapeString: (s: string) => pg.escapeLiteral(s),
    escapeParam: (_n: number, value: unknown) => {
      if (is(value, Placeholder)) throw new TypeError('a placeholder belongs in a fixed statement (fixedStatement)')
      return literal(value)
    },
  }).sql
}

function literal(value: unknown): string {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) throw new TypeError('bytes cannot be written into a one-trip statement')
  const text = prepareValue(value)
  if (text === null || text === undefined) return 'NULL'
  // PostgreSQL's text holds no NUL, and in the simple protocol one would end the whole message: refused here.
  if (String(text).includes('\u0000')) throw new TypeError('a NUL character cannot be written into a statement')
  return pg.escapeLiteral(String(text))
}

// Dates, times and intervals (and their arrays) as the text the server sent, as drizzle's node-postgres session
// answers them: a row read in one trip is the row `queryRows` gives for the same query.
const AS_TEXT = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL,
  1115, 1182, 1185, 1187, 1231])
export const ORM_TYPE_PARSERS = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (AS_TEXT.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)),
}

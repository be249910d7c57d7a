// A table's rows read by a fixed statement, decoded as the ORM's own select decodes them: each column's value
// through that column's `mapFromDriverValue` (bigint money, instants, JSON), keyed by the schema's property names.
import { getTableColumns, sql, type InferSelectModel, type SQL, type Table } from 'drizzle-orm'

/**
 * Every column of `table` (but `except`), qualified, for a fixed statement's SELECT or RETURNING list; never `*`,
 * whose meaning a migration that adds a column would change under a prepared statement.
 */
export function columnsOf(table: Table, except: readonly string[] = []): SQL {
  return sql.join(Object.entries(getTableColumns(table)).filter(([key]) => !except.includes(key)).map(([, column]) => sql`${column}`), sql`, `)
}

/** Decodes a row of `columnsOf(table)` into the ORM's row type. */
export function rowDecoder<T extends Table>(table: T): (row: Record<string, unknown>) => InferSelectModel<T> {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column }))
  return (row) => {
    const out: Record<string, unknown> = {}
    for (const { key, name, column } of columns) {
      if (!(name in row)) continue
      const value = row[name]
      out[key] = value === null ? null : column.mapFromDriverValue(value)
    }
    return out as InferSelectModel<T>
  }
}

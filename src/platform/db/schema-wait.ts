// Waiting for the schema a release needs, as the runtime role (which may not migrate: src/platform/db/migrate.ts stops a
// start while a migration is pending). A serving pod runs this first (`wait-for-schema`, its Kubernetes
// initContainer) while its release's migration Job applies the migrations, so it starts once they are in
// rather than failing its start again and again.
import type { Database } from './database.ts'
import { migrationName, readMigrations, type Migration } from './migrate.ts'

/** The migrations of this build the database has not applied: all of them before the first migration ran. */
export async function pendingMigrations(db: Database, migrations = readMigrations()): Promise<Migration[]> {
  const applied = await db.rawTransaction(async (tx) => {
    const [table] = await tx.query<{ created: boolean }>("SELECT to_regclass('schema_migracoes') IS NOT NULL AS created")
    return table!.created ? tx.query<{ versao: number }>('SELECT versao FROM schema_migracoes') : []
  })
  const done = new Set(applied.map((r) => r.versao))
  return migrations.filter((m) => !done.has(m.version))
}

export type SchemaWaitOptions = {
  /** Give up after this long (0: look once). */
  timeoutMs: number
  /** Between two looks. */
  intervalMs: number
  /** Told each time what it waits for changes (`pending …`, `database unreachable: …`), so a log shows progress. */
  onWaiting?: (why: string) => void
  /** Turns an opening failure into words (an error code, never a message that could carry a password). */
  describe?: (err: unknown) => string
  migrations?: Migration[]
  /** How to let go of what `open` gave (by default its close(); a caller lending its own database passes a no-op). */
  close?: (db: Database) => Promise<void>
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export class SchemaWaitTimeout extends Error {}

/**
 * Resolves once every migration of this build is applied. A database that cannot be opened yet (not up, the
 * runtime role's login not made yet by the first migration) is waited for too; `open` is called again after a
 * failure, and what it opened is let go (`close`) before this returns or throws.
 */
export async function waitForSchema(open: () => Promise<Database>, opts: SchemaWaitOptions): Promise<void> {
  const now = opts.now ?? Date.now
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const describe = opts.describe ?? ((err: unknown) => (err as { code?: string })?.code ?? (err as Error)?.name ?? 'error')
  const close = opts.close ?? ((db: Database) => db.close())
  const deadline = now() + opts.timeoutMs
  let db: Database | undefined
  let last = ''
  try {
    for (;;) {
      let why: string
      try {
        db ??= await open()
        const pending = await pendingMigrations(db, opts.migrations)
        if (!pending.length) return
        why = `${pending.length} migration${pending.length === 1 ? '' : 's'} pending (${pending.map(migrationName).join(', ')})`
      } catch (err) {
        why = `database unreachable: ${describe(err)}`
        if (db) await close(db).catch(() => {})
        db = undefined
      }
      if (why !== last) opts.onWaiting?.(why)
      last = why
      if (now() >= deadline) throw new SchemaWaitTimeout(`the schema is not current after ${Math.round(opts.timeoutMs / 1000)} s: ${why}`)
      await sleep(Math.min(opts.intervalMs, Math.max(0, deadline - now())))
    }
  } finally {
    if (db) await close(db).catch(() => {})
  }
}

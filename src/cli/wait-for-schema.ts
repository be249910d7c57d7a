// `wait-for-schema`: exits 0 once the database has every migration of this build, as the runtime role (a
// serving pod's initContainer while its release's migration Job runs: deploy/kubernetes). Exits 1 naming
// what is still missing when the time is up, so the pod shows why it does not start.
import { parseArgs } from 'node:util'
import type { Database } from '../platform/db/database.ts'
import { SchemaWaitTimeout, waitForSchema } from '../platform/db/schema-wait.ts'
import { databaseStartupError, startupProblem } from '../platform/lib/startup.ts'
import type { CliDeps } from './commands.ts'
import { openCliDatabase } from './database.ts'
import { parseOrUsage, UsageError, type CommandContext } from '../platform/cli/output.ts'

export const WAIT_FOR_SCHEMA_HELP = `  wait-for-schema [--timeout SECONDS] [--interval SECONDS]
                               wait (default 600 s, looking every 2 s) until every migration of this
                               build is applied, without applying any (a pod's init step); exit 1 if not`

function seconds(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a number of seconds, not "${value}"`)
  return n * 1000
}

export async function waitForSchemaCommand(argv: string[], { out, config }: Pick<CommandContext, 'out' | 'config'>, deps: CliDeps = {}): Promise<number> {
  const { values } = parseOrUsage(() => parseArgs({ args: argv, options: { timeout: { type: 'string' }, interval: { type: 'string' } } }))
  const timeoutMs = seconds('--timeout', values.timeout, 600_000)
  const intervalMs = seconds('--interval', values.interval, 2_000)
  // The database named once, not at every look; an embedded one not made yet is waited for (the server makes it).
  let named = false
  const say = (line: string) => { if (!named) out.error(line); named = true }
  const open = async (): Promise<Database> => deps.open ? deps.open(config) : openCliDatabase(config, { create: false, say })
  // An opening failure in the words the server would use (host and port, never the password), else its code.
  const describe = (err: unknown) => startupProblem(config.databaseUrl ? databaseStartupError(err, config.databaseUrl) : err)
    ?? (err as { code?: string }).code ?? (err as Error).name
  try {
    await waitForSchema(open, {
      timeoutMs, intervalMs, describe, onWaiting: (why) => out.log(`waiting for the schema: ${why}`),
      // A database the caller lent (tests) stays open; the one opened here is closed.
      close: deps.open ? async () => {} : (db) => db.close(),
    })
  } catch (err) {
    if (!(err instanceof SchemaWaitTimeout)) throw err
    out.error(`error: ${err.message}; the release's migration (\`migrate\`, as the schema's owner) has not run`)
    return 1
  }
  out.log('the schema is current')
  return 0
}

// Operator commands: thin calls into the same module functions the server uses. The process entry is main.ts.
import { systemClock } from '../platform/lib/clock.ts'
import { loadConfig, SETTINGS, type Config } from '../config.ts'
import type { Database } from '../platform/db/database.ts'
import { migrate, migrationName } from '../platform/db/migrate.ts'
import { checkServingRole } from '../platform/db/runtime-role.ts'
import { describeSettings } from '../platform/settings/describe.ts'
import { databaseStartupError, startupProblem } from '../platform/lib/startup.ts'
import type { CliCommand } from '../platform/module.ts'
import { MODULES } from '../modules-list.ts'
import { jobsCommand, JOBS_HELP } from './jobs.ts'
import { inertOutput, UsageError, type Output } from '../platform/cli/output.ts'
import { cliFailure } from '../platform/cli/refusals.ts'
import { queueCommand, QUEUE_HELP, mailCommand, MAIL_HELP } from './queue.ts'
import { waitForSchemaCommand, WAIT_FOR_SCHEMA_HELP } from './wait-for-schema.ts'
import { CREATE_OPTION, linkOrigin, openCliDatabase } from './database.ts'

const MIGRATE_HELP = `  migrate                      apply pending database migrations (the server also does at start);
                               creates the embedded database when DATA_DIR holds none`
const SETTINGS_HELP = '  configuracao                 the settings: each variable, what it is, its default and the values it takes'

/** The platform's commands (the queue, mail, the schema) and each module's, in the modules' order. */
const COMMANDS: readonly CliCommand[] = [
  { name: 'fila', help: QUEUE_HELP, run: queueCommand },
  { name: 'email', help: MAIL_HELP, run: mailCommand },
  { name: 'tarefas', help: JOBS_HELP, run: jobsCommand },
  ...MODULES.flatMap((m) => m.commands ?? []),
]

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
${[MIGRATE_HELP, SETTINGS_HELP, ...COMMANDS.map((c) => c.help), WAIT_FOR_SCHEMA_HELP].join('\n')}
  help                         this text

The database is DATABASE_URL, or the embedded one in DATA_DIR: while the server runs on it,
the CLI goes through the server's socket in DATA_DIR/pglite; otherwise it opens the files itself.
Every command that opens it first names it on stderr. Only migrate creates an embedded database
that does not exist yet; any other command refuses, unless given ${CREATE_OPTION}.
Links (invitations) start with PUBLIC_URL, else with the address of the server running on the
embedded database; without either, the command refuses.
Times are shown in Brasília time with their offset.`

/** Each command's own help, answered by `<command> --help` or `-h` anywhere in its arguments. */
const COMMAND_HELP: Record<string, string> = {
  migrate: MIGRATE_HELP,
  configuracao: SETTINGS_HELP,
  ...Object.fromEntries(COMMANDS.map((c) => [c.name, c.help])),
  'wait-for-schema': WAIT_FOR_SCHEMA_HELP,
}

export type CliDeps = {
  /** Opens the database; by default DATABASE_URL or DATA_DIR's embedded one (tests pass their own). */
  open?: (config: Config) => Promise<Database>
}

export async function runCli(argv: string[], terminal: Output, env: Record<string, string | undefined> = process.env, deps: CliDeps = {}): Promise<number> {
  const out = inertOutput(terminal)
  // Any command's option, taken out here wherever it is (before the command too): the commands' own parsers refuse
  // what they do not know.
  const create = argv.includes(CREATE_OPTION)
  const [command, ...rest] = argv.filter((a) => a !== CREATE_OPTION)
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out.log(HELP)
    return command ? 0 : 2
  }
  const ownHelp = Object.hasOwn(COMMAND_HELP, command) ? COMMAND_HELP[command] : undefined
  if (ownHelp && rest.some((a) => a === '--help' || a === '-h')) {
    out.log(`Usage: npm run cli -- ${command} …\n\n${ownHelp}`)
    return 0
  }
  // Read from the schema, not the environment: it helps most when a setting is refused.
  if (command === 'configuracao') {
    out.log(describeSettings(SETTINGS))
    return 0
  }
  let db: Database | undefined
  let owned = false
  let databaseUrl: string | undefined
  try {
    const config = loadConfig(env)
    databaseUrl = config.databaseUrl
    const open = async () => {
      if (db) return db
      if (deps.open) {
        db = await deps.open(config)
      } else {
        // Named on stderr; the running server's socket for the embedded database; created only by migrate or when asked.
        db = await openCliDatabase(config, { create: create || command === 'migrate', say: (line) => out.error(line) })
        owned = true
      }
      return db
    }
    // Every command but `migrate` serves as the runtime role, as the server does, and checks it first.
    const ctx = {
      open: async () => { const d = await open(); await migrate(d); await checkServingRole(d); return d },
      out, clock: systemClock, config, publicUrl: () => linkOrigin(config, owned ? db : undefined),
    }
    if (command === 'migrate') {
      const applied = await migrate(await open())
      out.log(applied.length ? `applied: ${applied.map(migrationName).join(', ')}` : 'database is up to date')
      return 0
    }
    if (command === 'wait-for-schema') return await waitForSchemaCommand(rest, ctx, deps)
    const found = COMMANDS.find((c) => c.name === command)
    if (!found) throw new UsageError(`unknown command "${command}"`)
    return await found.run(rest, ctx)
  } catch (err) {
    const failure = cliFailure(err)
    if (failure?.exitCode === 2) {
      // One line naming the problem and where the usage is, rather than the whole usage again.
      out.error(`error: ${failure.message}\nsee: npm run cli -- ${ownHelp ? `${command} --help` : 'help'}`)
      return 2
    }
    if (failure) {
      out.error(`error: ${failure.message}`)
      return 1
    }
    // A server that cannot be reached is the operator's to fix: say which setting, exit 2 as the server does.
    const named = databaseUrl && !deps.open ? databaseStartupError(err, databaseUrl) : err
    const problem = startupProblem(named)
    if (problem !== undefined) {
      out.error(`error: ${problem}`)
      return 2
    }
    out.error(`error: ${(named as Error).message}`)
    return 1
  } finally {
    if (owned) await db?.close()
  }
}

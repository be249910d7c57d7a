import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'

export type Output = { log(line: string): void, error(line: string): void }

/** What every command gets: a migrated database on demand, where to print, the time, the config. */
export type CommandContext = { open: () => Promise<Database>, out: Output, clock: Clock, config: Config }

/** Bad words on the command line: the CLI prints the message and the help, and exits 2. */
export class UsageError extends Error {}

export function parseOrUsage<T>(parse: () => T): T {
  try {
    return parse()
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

// The operator CLI run in-process against a test database, its output collected line by line.
import { tmpdir } from 'node:os'
import { runCli } from '../../src/cli/commands.ts'
import type { Database } from '../../src/platform/db/database.ts'

/** `lines` holds what the last `cli(…)` printed (stdout and stderr); `cli` resolves to the exit code. */
export function cliRunner(db: () => Database) {
  const lines: string[] = []
  const cli = (...argv: string[]) => {
    lines.length = 0
    return runCli(argv, { log: (s) => lines.push(s), error: (s) => lines.push(s) }, { DATA_DIR: tmpdir() }, { open: async () => db() })
  }
  return { lines, cli }
}

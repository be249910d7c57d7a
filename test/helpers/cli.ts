// The operator CLI run in-process against a test database, its output collected line by line.
import { tmpdir } from 'node:os'
import { runCli } from '../../src/cli/commands.ts'
import type { Database } from '../../src/platform/db/database.ts'

/** `lines` holds what the last `cli(…)` printed (stdout and stderr); `cli` resolves to the exit code. */
export function cliRunner(db: () => Database) {
  const lines: string[] = []
  const cli = (...argv: string[]) => {
    lines.length = 0
    // PUBLIC_URL: the CLI builds links from it alone (a lent database is no running server's).
    const env = { DATA_DIR: tmpdir(), PUBLIC_URL: 'http://127.0.0.1:3000' }
    return runCli(argv, { log: (s) => lines.push(s), error: (s) => lines.push(s) }, env, { open: async () => db() })
  }
  return { lines, cli }
}

// `node dist/cli/main.js <command>` (`npm run cli`): the entry and nothing else, so it runs however it is reached.
// It used to be the commands' module too, run only when `import.meta.url` matched `argv[1]` textually: through a
// symlinked release directory or a path with a space the two differ, and a `migrate` printed nothing and exited 0.
import { runCli } from './commands.ts'

// What it writes in DATA_DIR (an embedded database it opens, sandbox mail) is this user's alone, as for the server.
process.umask(0o077)
process.exitCode = await runCli(process.argv.slice(2), { log: (s) => console.log(s), error: (s) => console.error(s) })

// A new embedded database is created in a short-lived process of its own. PGlite's first start runs initdb
// in a second, temporary PGlite plus the initdb program, and the memory they take (~700 MB) is not given back
// to the system afterwards: done in the server itself, it would stay in the server's RSS for its whole life.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'

/**
 * PostgreSQL's defaults assume a server of its own; this one shares a process with the site and holds little
 * data. shared_buffers is what PGlite's memory grows to (128MB → 16MB took a later start from ~375 to ~250 MB
 * RSS, see scripts/measure-embedded.mjs); the rest bound per-query memory. PGlite's own start parameters first.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB', '-c', 'temp_buffers=1MB', '-c', 'wal_buffers=1MB', '-c', 'maintenance_work_mem=16MB',
]

/** Creates the database files in `dir` (already locked by the caller) unless they exist. */
export async function initPgliteDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return
  const self = fileURLToPath(import.meta.url)
  // process.execArgv carries a TypeScript loader when running from src/ (tests); from dist/ it is empty.
  const child = spawn(process.execPath, [...loaderArgs(process.execArgv), self, dir], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (d) => { stderr += d })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (c) => resolve(c))
  })
  if (code !== 0) throw new Error(`could not create the embedded database in ${dir} (exit ${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`)
}

/** Only the module loaders of this process's flags (a test runner's own flags must not reach the child). */
function loaderArgs(execArgv: string[]): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!
    if (/^--(import|require|loader|experimental-loader)=/.test(a)) kept.push(a)
    else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(a) && i + 1 < execArgv.length) kept.push(a, execArgv[++i]!)
  }
  return kept
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && ['.ts', '.js'].includes(extname(process.argv[1]))) {
  const db = await PGlite.create(process.argv[2]!, { startParams: PGLITE_START_PARAMS })
  await db.close()
}

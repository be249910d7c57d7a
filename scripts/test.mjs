// Runs every test file with Node's own runner (Node 20 has no glob for --test), TypeScript through tsx.
// Extra arguments are passed on: `npm test -- test/contact` runs only the files under that path.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function find(dir) {
  if (statSync(dir).isFile()) return [dir]
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? find(p) : p.endsWith('.test.ts') ? [p] : []
  })
}

const args = process.argv.slice(2)
const paths = args.filter((a) => !a.startsWith('-'))
const flags = args.filter((a) => a.startsWith('-'))
const files = (paths.length ? paths : ['test']).flatMap(find)
console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (DATABASE_URL unset)'}; ` +
  `rate limits: ${process.env.REDIS_URL ? 'Redis (REDIS_URL)' : 'memory (REDIS_URL unset)'}`)
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...flags, ...files], { stdio: 'inherit' })
process.exit(result.status ?? 1)

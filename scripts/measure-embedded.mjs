// Memory of the embedded default as a person trying it gets it: `node dist/main.js` on PGlite in a fresh
// DATA_DIR (first start: initdb and migrations), then again on the same files (a later start). For each,
// prints the server's peak RSS (the kernel's VmHWM), its RSS once ready and idle, and the peak of the
// one-time process that creates a new database's files. Run after `npm run build`:
//   node scripts/measure-embedded.mjs [idle seconds, default 10]
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const idleSeconds = Number(process.argv[2] ?? 10)
const dataDir = mkdtempSync(join(tmpdir(), 'fps-measure-'))
const mb = (kb) => `${Math.round(kb / 1024)} MB`

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

/** The highest peak RSS among the process's children (the one-time initdb process on a first start). */
function childPeak(pid, seen) {
  try {
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      seen.set(c, Math.max(seen.get(c) ?? 0, memory(c).peak || 0))
    }
  } catch { /* the child ended between two reads */ }
  return Math.max(0, ...seen.values())
}

async function run(label) {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', MAIL_SANDBOX: 'on' }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  const child = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (d) => { out += d })
  try {
    const started = Date.now()
    let base
    const children = new Map()
    while (!base) {
      childPeak(child.pid, children)
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${out}`)
      if (Date.now() - started > 120_000) throw new Error('not listening after 120 s')
      base = /listening at (http:\/\/[\d.:]+)/.exec(out)?.[1]
      if (!base) await sleep(50)
    }
    while ((await fetch(`${base}/api/health/ready`).catch(() => ({ status: 0 }))).status !== 200) await sleep(50)
    const ready = memory(child.pid)
    await sleep(idleSeconds * 1000)
    const idle = memory(child.pid)
    console.log(`${label}: ready in ${((Date.now() - started) / 1000 - idleSeconds).toFixed(1)} s, peak ${mb(idle.peak)}, at ready ${mb(ready.rss)}, ` +
      `idle after ${idleSeconds} s ${mb(idle.rss)}` +
      (children.size ? `; its short-lived child (initdb) peaked at ${mb(childPeak(child.pid, children))}` : ''))
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.exitCode !== null ? resolve() : child.on('exit', resolve))
  }
}

try {
  await run('first start (fresh DATA_DIR)')
  await run('later start (same DATA_DIR)')
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}

// The built service as a real process (`node dist/main.js`) for the fault tests: its own process group, its
// output collected, and killed (the whole group) when the test ends however it ends.
import { spawn, type ChildProcess } from 'node:child_process'
import type { TestContext } from 'node:test'
import { defer } from './fixture.ts'
import { freePort } from './smtp.ts'

export const MAIN = 'dist/main.js'

export type ServiceProcess = {
  child: ChildProcess
  base: string
  /** Everything it wrote, stdout and stderr interleaved. */
  output(): string
  /** Its exit code (null when killed by a signal), once it has exited. */
  exited: Promise<number | null>
  alive(): boolean
}

/** Starts `node dist/main.js` with `env` over a clean one (no DATABASE_URL or REDIS_URL of the test run's own). */
export async function spawnService(t: TestContext, env: Record<string, string>, args: string[] = []): Promise<ServiceProcess> {
  const base = { ...process.env } as Record<string, string>
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MIGRATION_DATABASE_URL', 'SMTP_URL']) delete base[name]
  const port = env.PORT ?? String(await freePort())
  const child = spawn(process.execPath, [...args, MAIN], {
    env: { ...base, PORT: port, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  defer(t, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // the group has exited already
    }
    await exited
  })
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  }
}

/** Waits for a line matching `re` in the output; fails with the output when the process ends first or it never comes. */
export async function waitForOutput(p: ServiceProcess, re: RegExp, ms = 240_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  for (;;) {
    const m = re.exec(p.output())
    if (m) return m
    if (!p.alive() || Date.now() > deadline) throw new Error(`no ${re} (exit ${p.child.exitCode}):\n${p.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

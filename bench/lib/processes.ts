// The processes a benchmark starts: each pinned, each killed when the benchmark ends however it ends.
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'

const children = new Set<ChildProcess>()
const killAll = () => { for (const c of children) if (c.exitCode === null) c.kill('SIGKILL') }
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { killAll(); process.exit(130) })

export type Started = { child: ChildProcess, base: string, startedAt: number, stop(): Promise<number | null> }

/** Starts `argv` with its output in `logFile`, and waits until `readyPath` on `port` answers 200. */
export async function startServer(
  argv: string[], env: NodeJS.ProcessEnv, port: number, logFile: string, readyPath = '/api/health/ready',
): Promise<Started & { readyMs: number }> {
  const startedAt = performance.now()
  const out = openSync(logFile, 'a')
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', out, out] })
  children.add(child)
  const base = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited ${child.exitCode}; see ${logFile}`)
    const ok = await fetch(base + readyPath).then((r) => r.status === 200, () => false)
    if (ok) break
    if (performance.now() - startedAt > 60_000) throw new Error(`${argv.join(' ')} not ready in 60 s; see ${logFile}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const readyMs = performance.now() - startedAt
  return {
    child, base, startedAt, readyMs,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode)
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      child.once('exit', (code) => { clearTimeout(timer); children.delete(child); resolve(code) })
      child.kill('SIGTERM')
    }),
  }
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : null
  } catch {
    return null
  }
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net')
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const port = (srv.address() as { port: number }).port
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/** CPU time a process has used so far (user and system), in microseconds, from /proc; null where there is none. */
export function cpuMicros(pid: number | undefined): number | null {
  try {
    // The fields after the command's name (which may hold spaces, so read from its closing parenthesis on):
    // utime and stime are the 12th and 13th there, in clock ticks of 1/100 s on Linux.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return null
  }
}

// Runs Debian's wrk (or pgbench) in its own process, pinned to the load CPU, and reads its summary.
import { spawn } from 'node:child_process'

export type LoadResult = {
  rps: number, p50: number | null, p99: number | null, requests: number, non2xx: number, socketErrors: number,
  /** Answers by status, where the script counts them (bench/load/statuses.lua). */
  statuses?: Record<string, number>
}

/** `taskset -c CPU cmd…` when taskset exists and the machine has that CPU; the command alone otherwise. */
export function pinned(cpu: number | undefined, cmd: string[]): string[] {
  return cpu === undefined ? cmd : ['taskset', '-c', String(cpu), ...cmd]
}

/**
 * The command's output, stdout and stderr together; `stdout` alone for a command whose stdout is data (the CLI's
 * --json) and whose stderr says other things (which database it opened). Both are in the error when it fails.
 */
export function runCaptured(argv: string[], env: NodeJS.ProcessEnv = process.env, answer: 'both' | 'stdout' = 'both'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let all = ''
    let out = ''
    child.stdout.on('data', (d) => { all += d; out += d })
    child.stderr.on('data', (d) => { all += d })
    child.on('error', reject)
    child.on('exit', (code) => code === 0 ? resolve(answer === 'stdout' ? out : all) : reject(new Error(`${argv.join(' ')} exited ${code}:\n${all}`)))
  })
}

const UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }
const ms = (v: string | undefined) => {
  const m = v ? /^([\d.]+)(us|ms|s|m)$/.exec(v.trim()) : null
  return m ? Number(m[1]) * UNIT[m[2]!]! : null
}

export function parseWrk(out: string): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN)
  if (!Number.isFinite(rps)) throw new Error(`unreadable wrk output:\n${out}`)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const statuses = [...out.matchAll(/^status (\d{3}) (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])] as const)
  return {
    rps,
    p50: ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    ...(statuses.length ? { statuses: Object.fromEntries(statuses) } : {}),
  }
}

export type WrkRun = {
  url: string, seconds: number, connections: number, cpu: number | undefined, script?: string, env?: NodeJS.ProcessEnv, headers?: string[]
  /** wrk's own is 2 s: an answer slower than this is counted as a socket error, and its latency is lost. */
  timeoutSeconds?: number
}

export async function wrk(r: WrkRun): Promise<LoadResult> {
  const argv = pinned(r.cpu, ['wrk', '-t1', `-c${r.connections}`, `-d${r.seconds}s`, '--latency',
    ...(r.timeoutSeconds ? ['--timeout', `${r.timeoutSeconds}s`] : []), ...(r.script ? ['-s', r.script] : []),
    ...(r.headers ?? []).flatMap((h) => ['-H', h]), r.url])
  return parseWrk(await runCaptured(argv, { ...process.env, ...r.env }))
}

export function parsePgbench(out: string): LoadResult {
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN)
  if (!Number.isFinite(tps)) throw new Error(`unreadable pgbench output:\n${out}`)
  const lat = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN)
  return { rps: tps, p50: null, p99: null, requests: Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0),
    non2xx: Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0), socketErrors: 0, ...(Number.isFinite(lat) ? { p50: lat } : {}) }
}

// A built entry point (dist/…) run as a real child process: its output collected, its exit awaited, and the
// process killed when the test ends however it ends.
import { spawn, type ChildProcess } from 'node:child_process'
import type { TestContext } from 'node:test'

export type BuiltProcess = {
  child: ChildProcess
  output(): string
  /** The exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string>
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, what: string): Promise<RegExpExecArray>
}

/** Runs `node <script> …args` in `cwd` with exactly `env` (nothing of the test's own environment leaks in). */
export function runBuilt(t: TestContext, script: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): BuiltProcess {
  const child = spawn(process.execPath, [script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')))
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  const waitFor = (pattern: RegExp, what: string) => new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(out)
      if (!m) return
      child.stdout!.off('data', check)
      child.stderr!.off('data', check)
      resolve(m)
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    check()
    void exited.then((code) => reject(new Error(`exited (${code}) before ${what}:\n${out}`)))
  })
  return { child, output: () => out, exited, waitFor }
}

/** The environment a built process gets: PATH and the given variables only. */
export function builtEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...vars }
}

// The service as its own process (`node --import tsx src/main.ts`), for what only a fresh process shows: which
// modules it loaded, and what its start-up patched. Stopped by SIGTERM when the test ends, however it ends.
import { spawn } from 'node:child_process'
import type { TestContext } from 'node:test'
import { defer } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'

export type Service = { base: string, output: () => string, stop(): Promise<number | null> }

export async function startService(t: TestContext, env: Record<string, string>, preload: string[] = []): Promise<Service> {
  const base: Record<string, string | undefined> = { ...process.env }
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT']) delete base[name]
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((p) => ['--import', p]), 'src/main.ts'], {
    env: { ...base, PORT: '0', DATA_DIR: env.DATA_DIR ?? tempDir('service'), LOG_LEVEL: 'info', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  defer(t, stop)
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m && /"service ready"/.test(out)) resolve(m[1]!)
    }
    child.stdout!.on('data', onData)
    // A start that never comes is killed (and so rejects), so a failing test leaves no process behind.
    setTimeout(() => child.kill('SIGKILL'), 60_000).unref()
    void exited.then((code) => reject(new Error(`the service exited (${code}) before it was ready:\n${out}`)))
  })
  return { base: url, output: () => out, stop }
}

// A redis-server child of the test on a port of its own, which a test can kill and start again on the
// same port (the shared Redis at 6379 is never touched).
import { spawn, type ChildProcess } from 'node:child_process'
import { freePort } from './smtp.ts'

export type TestRedis = {
  port: number
  /** A REDIS_URL for the service (with the password when one is required). */
  url: string
  start(): Promise<void>
  /** SIGKILL, as a crash or a lost host: no goodbye to the clients. */
  kill(): Promise<void>
  /** SIGSTOP / SIGCONT: a server that keeps its connections open and stops answering. */
  freeze(): void
  thaw(): void
}

export async function createTestRedis(opts: { password?: string } = {}): Promise<TestRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : ''
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice']
      if (opts.password) args.push('--requirepass', opts.password)
      const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
      child = proc
      let output = ''
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk
          if (output.includes('Ready to accept connections')) resolve()
        }
        proc.stdout!.on('data', onData)
        proc.stderr!.on('data', onData)
        proc.once('error', reject)
        proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
      })
    },
    freeze() { child?.kill('SIGSTOP') },
    thaw() { child?.kill('SIGCONT') },
    async kill() {
      const proc = child
      child = undefined
      if (!proc || proc.exitCode !== null) return
      const exited = new Promise((r) => proc.once('exit', r))
      proc.kill('SIGKILL')
      await exited
    },
  }
}

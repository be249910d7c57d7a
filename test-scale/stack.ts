// The production shape on one machine: a fresh PostgreSQL database, a private redis-server, an in-process SMTP
// server, N built instances (`node dist/main.js`) and Debian's nginx with deploy/nginx.conf, each a real child process.
// `stop()` kills and removes all of it, also after a failed start.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { openDatabase } from '../src/platform/db/database.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { createTestSmtp, freePort, type TestSmtp } from '../test/helpers/smtp.ts'

const ROOT = resolve(import.meta.dirname, '..')
export const NGINX_CONF = join(ROOT, 'deploy', 'nginx.conf')
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

export type Instance = { port: number, base: string, child: ChildProcess, output: () => string, exited: Promise<number | null> }

export type Stack = {
  lb: { port: number, output: () => string }
  instances: Instance[]
  /** Starts instance `i` again, once it has exited, on its port (so the balancer's upstream finds it), with `extra` in its environment. */
  restart(i: number, extra?: Record<string, string>): Promise<void>
  smtp: TestSmtp
  /** Queries the stack's database (a short-lived client). */
  query<T>(text: string): Promise<T[]>
  stop(): Promise<void>
}

export type StackOptions = { instances: number, rateLimits: object, env?: Record<string, string> }

/** The shipped file with only what cannot hold on this machine replaced: listen address, upstream servers, log and temp paths. */
export function privateNginxConf(shipped: string, listenPort: number, upstreamPorts: number[], prefix: string): string {
  const servers = /^(\s*)server app\d+:3000( [^;]*)?;\n/gm
  const first = servers.exec(shipped)
  if (!first || !/^\s*listen 8080;$/m.test(shipped)) throw new Error('deploy/nginx.conf: expected "listen 8080;" and "server appN:3000 …;" lines')
  const upstream = upstreamPorts.map((p) => `${first[1]}server 127.0.0.1:${p}${first[2] ?? ''};\n`).join('')
  let conf = shipped.replace(servers, (line) => line === first[0] ? upstream : '').replace(/^(\s*)listen 8080;$/m, `$1listen 127.0.0.1:${listenPort};`)
  // Debian's compiled-in temporary paths are under /var/lib/nginx: this run keeps its own.
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(prefix, t)};\n`).join('')
  conf = conf.replace(/^http \{\n/m, (m) => m + temps)
  // Node's stdio pipes are sockets, which nginx cannot open as /dev/stdout: the access log goes to a file.
  conf = conf.replace(/^(\s*access_log) \/dev\/stdout /m, `$1 ${join(prefix, 'access.log')} `)
  // As root, nginx would hand its workers to "nobody", who cannot enter the private prefix.
  if (process.getuid?.() === 0) conf = 'user root;\n' + conf
  return conf
}

function collect(child: ChildProcess): () => string {
  let out = ''
  child.stdout?.on('data', (d) => { out += d })
  child.stderr?.on('data', (d) => { out += d })
  return () => out
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code)))
}

async function waitForOutput(what: string, output: () => string, pattern: RegExp, exited: Promise<unknown>, timeoutMs = 20_000): Promise<void> {
  let gone = false
  void exited.then(() => { gone = true })
  const deadline = Date.now() + timeoutMs
  while (!pattern.test(output())) {
    if (gone) throw new Error(`${what} exited before it was ready:\n${output()}`)
    if (Date.now() > deadline) throw new Error(`${what} not ready in ${timeoutMs} ms:\n${output()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function waitForPort(what: string, port: number, output: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1', () => { s.destroy(); r(true) }).on('error', () => r(false))
    })
    if (ok) return
    if (Date.now() > deadline) throw new Error(`${what} does not accept connections on ${port}:\n${output()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function admin(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` before `npm run test:scale`')
  const dir = mkdtempSync(join(tmpdir(), 'fps-scale-'))
  const children: ChildProcess[] = []
  let nginx: ChildProcess | undefined
  const dbName = `fps_scale_${process.pid}_${randomBytes(4).toString('hex')}`
  let dbCreated = false
  const dbUrl = new URL(ADMIN_URL)
  dbUrl.pathname = `/${dbName}`
  const smtp = await createTestSmtp()

  const stop = async () => {
    await Promise.all(children.map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return
      // nginx's workers outlive a killed master: SIGTERM has the master stop them; SIGKILL only if it hangs.
      if (c === nginx) {
        c.kill('SIGTERM')
        const late = setTimeout(() => c.kill('SIGKILL'), 5000)
        await exitOf(c)
        clearTimeout(late)
        return
      }
      c.kill('SIGKILL')
      await exitOf(c)
    }))
    await smtp.stop()
    if (dbCreated) await admin(ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    await smtp.start()
    await admin(ADMIN_URL, `CREATE DATABASE ${dbName}`)
    dbCreated = true
    // Migrated once beforehand: the instances then start side by side on a ready schema.
    const db = await openDatabase({ databaseUrl: dbUrl.toString() })
    try { await migrate(db) } finally { await db.close() }

    const redisPort = await freePort()
    const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(redis)
    const redisOut = collect(redis)
    await waitForOutput('redis-server', redisOut, /Ready to accept connections/, exitOf(redis))

    const configFile = join(dir, 'service.json')
    writeFileSync(configFile, JSON.stringify({ rateLimits: opts.rateLimits }))
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      SMTP_URL: smtp.url,
      TRUST_PROXY: '127.0.0.1',
      SERVICE_CONFIG_FILE: configFile,
      MAIL_POLL_MS: '100',
      DATA_DIR: join(dir, 'data'),
      ...opts.env,
    }
    const spawnInstance = (port: number, extra: Record<string, string> = {}): Instance => {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')],
        { cwd: ROOT, env: { ...env, ...extra, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
      children.push(child)
      return { port, base: `http://127.0.0.1:${port}`, child, output: collect(child), exited: exitOf(child) }
    }
    const ready = (s: Instance, what: string) => waitForOutput(what, s.output, /"msg":"service ready"/, s.exited)
    const instances: Instance[] = []
    for (let i = 0; i < opts.instances; i++) instances.push(spawnInstance(await freePort()))
    await Promise.all(instances.map((s, i) => ready(s, `instance ${i + 1}`)))

    const lbPort = await freePort()
    const prefix = join(dir, 'nginx')
    const conf = join(dir, 'nginx.conf')
    writeFileSync(conf, privateNginxConf(readFileSync(NGINX_CONF, 'utf8'), lbPort, instances.map((s) => s.port), prefix))
    mkdirSync(prefix)
    const globals = `daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'nginx-error.log')} notice;`
    nginx = spawn('nginx', ['-p', prefix, '-c', conf, '-g', globals], { stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(nginx)
    const lbOut = collect(nginx)
    const errorLog = () => lbOut() + (existsSync(join(dir, 'nginx-error.log')) ? readFileSync(join(dir, 'nginx-error.log'), 'utf8') : '')
    await waitForPort('nginx', lbPort, errorLog)

    return {
      lb: { port: lbPort, output: () => errorLog() + (existsSync(join(prefix, 'access.log')) ? readFileSync(join(prefix, 'access.log'), 'utf8') : '') },
      instances,
      async restart(i, extra) {
        const old = instances[i]!
        if (old.child.exitCode === null && old.child.signalCode === null) throw new Error(`instance ${i + 1} is still running`)
        instances[i] = spawnInstance(old.port, extra)
        await ready(instances[i]!, `instance ${i + 1} (restarted)`)
      },
      smtp,
      query: async <T>(text: string) => await admin(dbUrl.toString(), text) as T[],
      stop,
    }
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
}

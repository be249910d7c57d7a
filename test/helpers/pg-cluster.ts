// A throwaway PostgreSQL cluster of one test: initdb'd in a directory of its own, on a free loopback port with
// trust authentication, which the test can stop the hard way (`pg_ctl -m immediate`: no goodbye to the clients,
// as a crash or a failover) and start again. The shared server at DATABASE_URL is never touched.
//
// PostgreSQL refuses to run as root: as root the binaries run as the `postgres` OS user, in a directory it owns.
// That directory is under /tmp rather than the test run's TMPDIR, which is private to the user running the tests.
// The cluster is stopped and its directory removed by `remove()`, and by an exit hook if the test process ends
// without calling it.
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from './smtp.ts'

export type PgCluster = {
  port: number
  /** The superuser's URL of database `name` (`postgres` by default). */
  url(name?: string): string
  start(): void
  /** `pg_ctl -m immediate stop`: every connection is cut at once. */
  stopImmediately(): void
  /** Stops it (if running) and removes its directory; safe to call more than once. */
  remove(): void
}

const PG_ROOT = '/usr/lib/postgresql'

/** The newest installed PostgreSQL's bin directory, or undefined when there is none. */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return existsSync(join(process.env.PG_BIN_DIR, 'initdb')) ? process.env.PG_BIN_DIR : undefined
  if (!existsSync(PG_ROOT)) return undefined
  const versions = readdirSync(PG_ROOT).filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions[0] && join(PG_ROOT, versions[0], 'bin')
}

const asRoot = process.getuid?.() === 0

const live = new Set<PgCluster>()
process.once('exit', () => { for (const cluster of live) cluster.remove() })

export async function createPgCluster(): Promise<PgCluster> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql: set PG_BIN_DIR')
  const port = await freePort()
  const dir = mkdtempSync('/tmp/fps-pg-')
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'))
  // The binaries as the postgres user when this is root; output kept for the error when one fails.
  const pg = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool)
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args
    const result = spawnSync(command, argv, { cwd: dir, encoding: 'utf8', timeout: 60_000 })
    if (result.status !== 0) {
      const serverLog = existsSync(log) ? execFileSync('tail', ['-n', '20', log], { encoding: 'utf8' }) : ''
      throw new Error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}\n${serverLog}`)
    }
  }
  let running = false
  let removed = false
  const cluster: PgCluster = {
    port,
    url: (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`,
    start() {
      pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start'])
      running = true
    },
    stopImmediately() {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      running = false
    },
    remove() {
      if (removed) return
      removed = true
      live.delete(cluster)
      try {
        if (running) pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
  live.add(cluster)
  try {
    pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'])
    // Loopback only, no Unix socket (nothing to collide with the machine's own). No fsync: an immediate stop kills
    // the server, not the machine, so what was written survives in the OS's cache; but commits stay synchronous,
    // or a commit the service was told of could be lost with the server, which is not what a test of it wants.
    appendFileSync(join(data, 'postgresql.conf'), [
      `port = ${port}`, "listen_addresses = '127.0.0.1'", "unix_socket_directories = ''",
      'fsync = off', 'full_page_writes = off', 'max_connections = 50', '',
    ].join('\n'))
    cluster.start()
  } catch (err) {
    cluster.remove()
    throw err
  }
  return cluster
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
}

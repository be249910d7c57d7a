// Why a process could not start, said as an operator needs it: the setting to change, never a stack trace,
// never a password (a DATABASE_URL is shown as host, port and database only). Exit code 2 for all of them.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { ConfigError, StartupError } from './startup-error.ts'

export { StartupError }

/** The message for a failure an operator can fix, or undefined for a real fault (a bug). */
export function startupProblem(err: unknown): string | undefined {
  if (err instanceof ConfigError) return `configuration error: ${err.message}`
  if (err instanceof StartupError) return err.message
  return undefined
}

/** Prints the problem and exits 2, or rethrows a fault that is not the operator's to fix. */
export function exitOnStartupProblem(err: unknown): never {
  const problem = startupProblem(err)
  if (problem === undefined) throw err
  console.error(problem)
  process.exit(2)
}

/** Where a DATABASE_URL points, without user or password. */
export function databaseWhere(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`
  } catch {
    return 'the configured server'
  }
}

/** Network error codes of Node and SQLSTATEs of PostgreSQL, in an operator's words. */
const CONNECT_CODES = new Map<string, string>([
  ['ECONNREFUSED', 'nothing accepts connections there'],
  ['ENOTFOUND', 'the host name does not resolve'],
  ['EAI_AGAIN', 'the host name does not resolve'],
  ['ETIMEDOUT', 'the connection timed out'],
  ['EHOSTUNREACH', 'the host is unreachable'],
  ['ECONNRESET', 'the server closed the connection'],
  ['28P01', 'the password was refused'],
  ['28000', 'the user may not connect'],
  ['3D000', 'the database does not exist'],
  ['57P03', 'the server is starting up or shutting down'],
  ['53300', 'the server has too many connections'],
])

/** A connection failure at start named by its variable; any other error (a failed migration) as it is. */
export function databaseStartupError(err: unknown, url: string, variable = 'DATABASE_URL'): unknown {
  const e = err as { code?: string, message?: string, errors?: { code?: string }[] }
  const code = e?.code ?? e?.errors?.[0]?.code
  let why = code ? CONNECT_CODES.get(code) : undefined
  if (!why && /timeout|Connection terminated/i.test(e?.message ?? '')) why = 'the connection timed out'
  if (!why) return err
  return new StartupError(`${variable}: cannot connect to PostgreSQL at ${databaseWhere(url)}: ${why}${code ? ` (${code})` : ''}`)
}

/**
 * A statement PostgreSQL refused at start that no check above foresaw (a migration the login may not run): the
 * server's own words and SQLSTATE, which name what is missing, in place of a stack that says nothing to an operator.
 * The server's message at start names objects and roles, never a query's parameters or a password.
 */
export function databaseRefusal(err: unknown): string | undefined {
  for (let e = err as { code?: unknown, severity?: unknown, message?: unknown, cause?: unknown } | undefined, depth = 0; e && depth < 3;
    e = e.cause as typeof e, depth++) {
    if (typeof e.severity === 'string' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return `PostgreSQL refused a statement at start: ${String(e.message)} (SQLSTATE ${e.code}). The login in DATABASE_URL ` +
        '(or MIGRATION_DATABASE_URL when set) lacks a right the start needs: see "Credentials: the database roles" in the README.'
    }
  }
  return undefined
}

/** A listen() failure named by PORT or HOST. */
export function listenStartupError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException)?.code
  switch (code) {
    case 'EADDRINUSE': return new StartupError(`PORT ${port} is already in use on HOST ${host} (EADDRINUSE): stop the other process or set another PORT`)
    case 'EACCES': return new StartupError(`PORT ${port} needs privileges this user lacks (EACCES): use a port above 1023`)
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new StartupError(`HOST "${host}" is not an address of this machine (${code}): use 127.0.0.1, 0.0.0.0 (every interface) or one of its addresses`)
    default: return err
  }
}

/**
 * Creates DATA_DIR (private to this user) and checks that it can be written, before anything opens it.
 * One level at a time: a recursive mkdir loops forever under /proc.
 */
export function prepareDataDir(dir: string): void {
  const target = resolve(dir)
  const missing: string[] = []
  let at = target
  for (;;) {
    let st
    try {
      st = statSync(at)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOENT') throw new StartupError(`DATA_DIR "${dir}" cannot be used: ${at} is not reachable (${code})`)
      missing.unshift(at)
      if (dirname(at) === at) break
      at = dirname(at)
      continue
    }
    if (!st.isDirectory()) throw new StartupError(`DATA_DIR "${dir}" cannot be used: ${at} is not a directory (ENOTDIR)`)
    break
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: 0o700 })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'EEXIST') throw new StartupError(`DATA_DIR "${dir}" cannot be created: ${d} (${code})`)
    }
  }
  try {
    accessSync(target, constants.W_OK | constants.X_OK)
  } catch (err) {
    throw new StartupError(`DATA_DIR "${dir}" is not writable by this user (${(err as NodeJS.ErrnoException).code})`)
  }
}

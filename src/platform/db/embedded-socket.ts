// The embedded database offered to local processes (the operator CLI) over a Unix socket in DATA_DIR, in
// the PostgreSQL wire protocol, so they connect with `pg` as to any PostgreSQL while the server holds the files.
//
// PGlite has one session. Its query mutex serialises single statements and its transaction mutex serialises
// `.transaction()` calls, but a statement from elsewhere could still land inside an open transaction. So a
// socket connection owns the database for its whole life: it waits until no transaction of the server is open
// (transaction mutex), then keeps every other statement out (query mutex) until it disconnects, and anything it
// left open is rolled back. The CLI holds a connection for milliseconds; an idle one is cut after IDLE_MS, so a
// stuck client cannot stall the site. (`@electric-sql/pglite-socket` interleaves clients per message and pins an
// exact older PGlite, hence these few lines instead.)
import { chmodSync, existsSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

/** The file name libpq and `pg` look for in a socket directory: `host=<dir>` with port 5432. */
export const SOCKET_PORT = 5432
export const socketPathIn = (dir: string): string => join(dir, `.s.PGSQL.${SOCKET_PORT}`)

const IDLE_MS = 10_000
const SSL_REQUEST = 80877103
const CANCEL_REQUEST = 80877102
const PROTOCOL_3 = 196608

/** Linux's sun_path holds 108 bytes with the final NUL; Node silently cuts a longer path and listens on the cut one. */
export const MAX_SOCKET_PATH_BYTES = 107

/** Why the socket is not served, in words fit for a log line (an error code, never an error's message). */
export class EmbeddedSocketError extends Error {}

export type EmbeddedSocket = { readonly path: string, close(): Promise<void> }

/** `afterEach`: SQL run when a connection ends, to put the session back as the server uses it (its role). */
export async function serveEmbeddedSocket(client: PGlite, dir: string, afterEach?: string): Promise<EmbeddedSocket> {
  const path = socketPathIn(dir)
  const bytes = Buffer.byteLength(path)
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    const why = `over the ${MAX_SOCKET_PATH_BYTES} a Unix socket path may have: use a shorter DATA_DIR`
    throw new EmbeddedSocketError(`its socket path ${path} is ${bytes} bytes, ${why}`)
  }
  // A file left by a process that died (the directory lock already proved no live server owns it).
  if (existsSync(path)) rmSync(path, { force: true })
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    void serveConnection(client, socket, afterEach)
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(path, () => { server.off('error', reject); resolve() })
    })
    // Once listening, an error is one connection's that could not be accepted (EMFILE): the server keeps serving,
    // and the error must not reach the process.
    server.on('error', () => {})
    // listen() creates the file with the umask's mode; say it outright: only this user may connect.
    chmodSync(path, 0o600)
  } catch (err) {
    // No half-served socket and no stray file: the server runs without it.
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(path, { force: true })
    throw new EmbeddedSocketError(`serving its socket at ${path} failed (${(err as NodeJS.ErrnoException).code ?? 'unknown error'})`)
  }
  return {
    path,
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(path, { force: true })
    },
  }
}

async function serveConnection(client: PGlite, socket: Socket, afterEach: string | undefined): Promise<void> {
  let buffer = Buffer.alloc(0)
  let wake: (() => void) | undefined
  let ended = false
  const finish = () => { ended = true; wake?.() }
  socket.on('data', (chunk: Buffer) => { buffer = Buffer.concat([buffer, chunk]); wake?.() })
  socket.on('close', finish)
  socket.on('error', finish)
  socket.setTimeout(IDLE_MS, () => socket.destroy())

  /** The next whole message, or undefined when the client is gone. */
  const next = async (startup: boolean): Promise<Buffer | undefined> => {
    for (;;) {
      const size = startup ? (buffer.length >= 4 ? buffer.readInt32BE(0) : 0) : (buffer.length >= 5 ? buffer.readInt32BE(1) + 1 : 0)
      if (size > 0 && buffer.length >= size) {
        const message = buffer.subarray(0, size)
        buffer = buffer.subarray(size)
        return message
      }
      if (ended) return undefined
      await new Promise<void>((resolve) => { wake = resolve })
      wake = undefined
    }
  }

  // The start-up phase needs no database: refuse TLS, ignore cancel requests, then hand over the start-up packet.
  let first: Buffer | undefined
  for (;;) {
    first = await next(true)
    if (!first) return
    const code = first.length >= 8 ? first.readInt32BE(4) : 0
    if (code === SSL_REQUEST) { socket.write('N'); continue }
    if (code === CANCEL_REQUEST || code !== PROTOCOL_3) { socket.destroy(); return }
    break
  }
  const startup = first
  try {
    await client._runExclusiveTransaction(() => client._runExclusiveQuery(async () => {
      let message: Buffer | undefined = startup
      while (message && !ended) {
        if (message[0] === 0x58 && message !== startup) break // Terminate ('X')
        await client.execProtocolRawStream(new Uint8Array(message), { onRawData: (data) => { if (!ended) socket.write(Buffer.from(data)) } })
        message = await next(false)
      }
      // What the client left open must not become the server's transaction.
      if (client.isInTransaction()) await client.execProtocolRaw(simpleQuery('ROLLBACK'))
      // Nor may what it set for its session (a RESET ROLE typed in psql) become the server's.
      if (afterEach) await client.execProtocolRaw(simpleQuery(afterEach))
    }))
  } catch {
    socket.destroy()
    return
  }
  socket.end()
}

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8')
  const header = Buffer.alloc(5)
  header.write('Q', 0)
  header.writeInt32BE(text.length + 4, 1)
  return new Uint8Array(Buffer.concat([header, text]))
}

// A TCP proxy in front of a server, which a test can take down (cutting every connection) and bring back.
import net from 'node:net'

export type TcpProxy = {
  port: number
  down(): Promise<void>
  up(): Promise<void>
  /** Connections stay open but nothing flows: a server that stops answering rather than refusing. */
  freeze(): void
  thaw(): void
  close(): Promise<void>
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let port = 0
  let frozen = false
  type Pair = { client: net.Socket, upstream: net.Socket }
  const pairs = new Set<Pair>()
  const connect = ({ client, upstream }: Pair) => { client.pipe(upstream); upstream.pipe(client) }
  // Unpiped and paused: bytes wait in the kernel, as with a server that hangs (pipe() would resume them).
  const cut = ({ client, upstream }: Pair) => { client.unpipe(upstream); upstream.unpipe(client); client.pause(); upstream.pause() }
  const up = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(targetPort, targetHost)
      for (const s of [client, upstream]) {
        sockets.add(s)
        s.on('close', () => sockets.delete(s))
        s.on('error', () => s.destroy())
      }
      const pair: Pair = { client, upstream }
      pairs.add(pair)
      client.on('close', () => pairs.delete(pair))
      if (!frozen) connect(pair)
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
    port = (server.address() as net.AddressInfo).port
  }
  const down = async () => {
    const closed = new Promise<void>((resolve) => server ? server.close(() => resolve()) : resolve())
    for (const s of sockets) s.destroy()
    await closed
    server = undefined
  }
  await up()
  return {
    get port() { return port },
    up,
    down,
    freeze() { frozen = true; for (const p of pairs) cut(p) },
    thaw() { frozen = false; for (const p of pairs) connect(p) },
    close: down,
  }
}

// A TCP proxy in front of a server, which a test can take down (cutting every connection) and bring back.
import net from 'node:net'

export type TcpProxy = { port: number, down(): Promise<void>, up(): Promise<void>, close(): Promise<void> }

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let port = 0
  const up = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(targetPort, targetHost)
      for (const s of [client, upstream]) {
        sockets.add(s)
        s.on('close', () => sockets.delete(s))
        s.on('error', () => s.destroy())
      }
      client.pipe(upstream).pipe(client)
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
  return { get port() { return port }, up, down, close: down }
}

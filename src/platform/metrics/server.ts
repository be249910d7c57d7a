// The metrics listener: a plain HTTP server on METRICS_PORT, apart from the public port, so that
// /metrics is never reachable by the public (the port is opened to the scraper only).
import { createServer, type Server } from 'node:http'
import type { Registry } from 'prom-client'
import { StartupError } from '../lib/startup.ts'

export type MetricsServer = { port: number, close(): Promise<void> }

export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n')
      return
    }
    registry.metrics().then(
      (text) => { res.writeHead(200, { 'content-type': registry.contentType }).end(text) },
      () => { res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n') },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(metricsListenError(err, host, port)))
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
  }
}

function metricsListenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (err.code) {
    case 'EADDRINUSE':
      return new StartupError(`METRICS_PORT ${port} is already in use on HOST ${host} (EADDRINUSE): stop the other process or set another METRICS_PORT`)
    case 'EACCES': return new StartupError(`METRICS_PORT ${port} needs privileges this user lacks (EACCES): use a port above 1023`)
    default: return new StartupError(`METRICS_PORT ${port} cannot be opened on HOST ${host} (${err.code ?? 'error'})`)
  }
}

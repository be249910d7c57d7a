// A real HTTP receiver for the webhook tests: it keeps every request it got (headers and body), answers as the test
// says (a status, a body, a redirect, or never), and is closed, its sockets with it, when the test ends.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type Received = { headers: IncomingHttpHeaders, body: string, at: number }
export type Answer = { status: number, body?: string, headers?: Record<string, string> } | 'hang'

export type Receiver = {
  url: string
  got: Received[]
  /** How the next request is answered: called with the request, its answer decides. */
  answer: (r: Received) => Answer
  /** Resolves when `n` requests have come. */
  count(n: number): Promise<void>
  hanging: ServerResponse[]
  close(): Promise<void>
}

export async function receiver(): Promise<Receiver> {
  const sockets = new Set<Socket>()
  const waiters: { n: number, resolve: () => void }[] = []
  const r: Receiver = {
    url: '', got: [], hanging: [], answer: () => ({ status: 200, body: 'ok' }),
    count: (n) => new Promise((resolve) => { if (r.got.length >= n) resolve(); else waiters.push({ n, resolve }) }),
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    }),
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      r.got.push(got)
      for (const w of [...waiters]) if (r.got.length >= w.n) { waiters.splice(waiters.indexOf(w), 1); w.resolve() }
      const a = r.answer(got)
      if (a === 'hang') { r.hanging.push(res); return }
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers })
      res.end(a.body ?? '')
    })
  })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return r
}

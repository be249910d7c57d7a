// The limit for a Node service: node:http answering, for each path, the exact status, headers and body the
// service answered (captured by bench/run.ts into the file named by BENCH_RESPONSES). No framework, no work.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const responses = new Map(Object.entries(JSON.parse(readFileSync(process.env.BENCH_RESPONSES, 'utf8'))).map(([key, r]) => {
  const body = Buffer.from(r.body, 'base64')
  return [key, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }]
}))

const server = createServer((req, res) => {
  const found = responses.get(`${req.method} ${req.url}`)
  const answer = () => {
    if (!found) { res.writeHead(404).end(); return }
    res.writeHead(found.status, found.headers)
    res.end(found.body)
  }
  // A POST is answered after its body has been read, as any real handler must.
  if (req.method === 'POST') { req.resume(); req.on('end', answer) } else answer()
})
server.keepAliveTimeout = 72_000
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`listening ${server.address().port}`))

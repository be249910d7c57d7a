// The webhook bench's receiver, a process of its own (on the load's CPU): it answers every POST 204 at once and
// keeps, per Webhook-Id, when it arrived (Date.now(): the bench compares it with the commit's time on the same
// machine). GET /stats answers the count; GET /arrivals the map; POST /reset empties both.
import { createServer } from 'node:http'

const arrivals = new Map()
let count = 0
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count }))
  if (req.method === 'GET' && req.url === '/arrivals') {
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Object.fromEntries(arrivals)))
  }
  if (req.method === 'POST' && req.url === '/reset') { arrivals.clear(); count = 0; return res.writeHead(204).end() }
  if (req.method === 'GET' && req.url === '/api/health') return res.writeHead(200).end('ok')
  req.resume()
  req.on('end', () => {
    const id = req.headers['webhook-id']
    if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, Date.now())
    count++
    res.writeHead(204).end()
  })
})
server.listen(Number(process.env.PORT), '127.0.0.1')

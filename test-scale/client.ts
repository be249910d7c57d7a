// A client with its own loopback source address (127.x.y.z): to nginx, and so to the service, its own IP.
import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export type Answer = { status: number, headers: IncomingHttpHeaders, body: string }

export type Call = { method?: string, path: string, from: string, headers?: Record<string, string>, json?: unknown }

export function call(port: number, c: Call): Promise<Answer> {
  const body = c.json === undefined ? undefined : JSON.stringify(c.json)
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port, method: c.method ?? 'GET', path: c.path, localAddress: c.from, agent: false,
      headers: { ...c.headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { text += d })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A distinct contact every call, so the form's de-duplication never answers one for another. */
export function contact(tag: string): Record<string, string> {
  return {
    nome: 'Maria da Conceição',
    email: 'maria@empresa.com.br',
    assunto: 'financeiro',
    mensagem: `Gostaria de antecipar as duplicatas do mês. ${tag} ${randomBytes(4).toString('hex')}`,
  }
}

export function postContact(port: number, from: string, tag: string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(port, { method: 'POST', path: '/api/site/contato', from, headers: { 'x-request-id': tag, ...headers }, json: contact(tag) })
}

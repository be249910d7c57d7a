// What a stopping server is tested with: clients looping over kept-alive connections, a request left in flight
// (headers and half its body sent), and whether the listener still accepts connections.
import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { connect, type Socket } from 'node:net'

export type Answer = { status: number, headers: IncomingHttpHeaders, body: string }

/** A GET over `agent` (false: a connection of its own), connecting from `from` if given. */
export function get(port: number, path: string, agent: Agent | false, from?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent, localAddress: from }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      res.on('error', reject)
    }).on('error', reject).end()
  })
}

export type Load = {
  answers: Answer[]
  /** Each failed request's error code and when it failed (Date.now()). */
  errors: { code: string, at: number }[]
  stop(): Promise<void>
}

/** `clients` loops, each sending GETs of `paths` in turn over one shared keep-alive agent (connecting from `from`), until `stop()`. */
export function keepAliveLoad(port: number, clients: number, paths: string[], from?: string): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: clients })
  const answers: Answer[] = []
  const errors: Load['errors'] = []
  let running = true
  const loop = async (i: number) => {
    for (let n = i; running; n++) {
      try {
        answers.push(await get(port, paths[n % paths.length]!, agent, from))
      } catch (err) {
        errors.push({ code: (err as NodeJS.ErrnoException).code ?? String(err), at: Date.now() })
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  }
  const loops = Array.from({ length: clients }, (_, i) => loop(i))
  return {
    answers,
    errors,
    async stop() {
      running = false
      await Promise.all(loops)
      agent.destroy()
    },
  }
}

/**
 * The errors a client talking to a stopping instance directly may see (a balancer retries them): a refused
 * connect, a kept-alive connection closed as the request went out.
 */
export const STOPPING_ERRORS = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE']

export type InFlight = { socket: Socket, reply(): string, closed: Promise<void>, finish(): void }

/** A contact POST (from `from`) whose headers and the first part of its body are sent: in flight until `finish()`. */
export async function halfSentContact(port: number, tag: string, from?: string): Promise<InFlight> {
  const body = JSON.stringify({
    nome: 'Maria da Conceição', email: 'maria@empresa.com.br', assunto: 'financeiro', mensagem: `Gostaria de antecipar as duplicatas. ${tag}`,
  })
  const socket = connect({ port, host: '127.0.0.1', localAddress: from })
  let reply = ''
  socket.setEncoding('utf8').on('data', (d) => { reply += d })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  socket.write(`POST /api/site/contato HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`)
  socket.write(body.slice(0, 20))
  return { socket, reply: () => reply, closed, finish: () => { socket.write(body.slice(20)) } }
}

/** Whether a new connection to `port` is refused (the listener is closed). */
export function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => { s.destroy(); resolve(false) }).on('error', () => resolve(true))
  })
}

/** The whole answer (status line to the end of a JSON body) has arrived. */
export const answered = (reply: string): boolean => /\r\n\r\n\{.*\}$/s.test(reply)

// Requests Node's HTTP parser refuses before Fastify sees them (a bad header byte, a malformed
// Content-Length or Transfer-Encoding, headers too large, a header deadline missed): Fastify's default
// answer is JSON without `detail`; these get the contract's `{"detail": code}` like every other error.
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { problem, type HttpProblem } from './problem.ts'

type ClientError = Error & { code?: string }

// Written straight to the socket (there is no reply object yet), so each is turned into bytes once.
const ANSWERS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: rawAnswer(problem('tempo_esgotado')),
  HPE_HEADER_OVERFLOW: rawAnswer(problem('cabecalho_muito_grande')),
}
const BAD_REQUEST = rawAnswer(problem('requisicao_invalida'))

export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  // As Node's own handler: never write into a response that has already started on this connection.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !pending?.headersSent) socket.write((err.code && ANSWERS[err.code]) || BAD_REQUEST)
  socket.destroy(err)
}

/** The whole HTTP/1.1 response for `p`: the connection closes after it. */
function rawAnswer(p: HttpProblem): string {
  const body = JSON.stringify(p.body)
  const headers = Object.entries(p.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return `HTTP/1.1 ${p.statusCode} ${STATUS_CODES[p.statusCode]}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `${headers}Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
}

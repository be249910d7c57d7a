// Requests Node's HTTP parser refuses before Fastify sees them (a bad header byte, a malformed
// Content-Length or Transfer-Encoding, headers too large, a header deadline missed): Fastify's default
// answer is JSON without `detail`; these get the contract's `{"detail": code}` like every other error.
import type { Socket } from 'node:net'
import type { DetailCode } from './problem.ts'

type ClientError = Error & { code?: string }

const ANSWERS: Record<string, [number, string, DetailCode]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'tempo_esgotado'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'cabecalho_muito_grande'],
}
const BAD_REQUEST: [number, string, DetailCode] = [400, 'Bad Request', 'requisicao_invalida']

export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, reason, detail] = (err.code && ANSWERS[err.code]) || BAD_REQUEST
  // As Node's own handler: never write into a response that has already started on this connection.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !pending?.headersSent) {
    const body = JSON.stringify({ detail })
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(err)
}

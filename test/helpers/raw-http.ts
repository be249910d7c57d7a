// HTTP/1.1 over a bare socket: for requests fetch and node:http refuse to send (invalid header bytes,
// duplicated or contradictory framing, raw unicode in the path) and for clients that never finish.
import net from 'node:net'

export type RawResponse = {
  status: number
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
}

export type RawResult = {
  /** The first response on the connection, or null when the server closed without one. */
  response: RawResponse | null
  /** Everything the server sent. */
  raw: Buffer
}

export type RawRequestOptions = {
  /** Half-close after writing (the client sends nothing more): a request left short must then end. */
  endAfterWrite?: boolean
  /** The server must answer or close within this; a request left hanging fails the caller. */
  timeoutMs?: number
  /** The request method, so the response to HEAD is read without a body. */
  method?: string
}

/** Sends `bytes` on a new connection and resolves with the first response (the connection is then closed). */
export function rawRequest(port: number, bytes: Buffer, opts: RawRequestOptions = {}): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    const chunks: Buffer[] = []
    let settled = false
    const finish = (err?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const raw = Buffer.concat(chunks)
      if (err) reject(err)
      else resolve({ raw, response: parseResponse(raw, opts.method === 'HEAD')?.response ?? null })
    }
    const timer = setTimeout(() => finish(new Error(`no answer and no close within ${opts.timeoutMs ?? 10_000} ms`)), opts.timeoutMs ?? 10_000)
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      if (parseResponse(Buffer.concat(chunks), opts.method === 'HEAD')?.complete) finish()
    })
    // The server may close while we still write (it refused the request early): what it sent still counts.
    socket.on('error', () => finish())
    socket.on('close', () => finish())
    socket.write(bytes, () => { if (opts.endAfterWrite) socket.end() })
  })
}

/** The first response in `raw`, and whether all of its body has arrived; null before its headers have. */
export function parseResponse(raw: Buffer, head = false): { response: RawResponse, complete: boolean } | null {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1])
  if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  }
  const rest = raw.subarray(end + 4)
  // An interim answer (100 Continue to Expect) comes before the real one.
  if (status >= 100 && status < 200) return parseResponse(rest, head)
  const response = (body: Buffer) => ({ status, headers, body })
  if (head || status === 204 || status === 304) return { response: response(Buffer.alloc(0)), complete: true }
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const body = dechunk(rest)
    return body ? { response: response(body), complete: true } : { response: response(rest), complete: false }
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length'])
    return { response: response(rest.subarray(0, length)), complete: rest.length >= length }
  }
  return { response: response(rest), complete: false } // ends when the server closes
}

/** A whole chunked body, or null while chunks are still missing. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16)
    if (!Number.isInteger(size)) throw new Error('bad chunk size in response')
    if (size === 0) return Buffer.concat(parts)
    if (data.length < lineEnd + 2 + size + 2) return null
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}

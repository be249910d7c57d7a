// The exact answers of the service (status, headers, body), so the bare baseline serves the same bytes.
import { request } from 'node:http'

export type Captured = { status: number, headers: Record<string, string>, body: string }

/** Without Accept-Encoding (as wrk sends), so the bytes are the ones a load generator receives. */
export function capture(base: string, method: string, path: string, body?: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) {
          // Per-connection and per-moment headers are the server's own business.
          if (v === undefined || ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) continue
          headers[k] = Array.isArray(v) ? v.join(', ') : v
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

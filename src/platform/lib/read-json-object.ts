// A small HTTP server's request body (the sandbox bank's, the sandbox registradora's): a JSON object of at most
// `maxBytes`, or undefined for anything else (too large, not JSON, not an object). An empty body is an empty object.
import type { IncomingMessage } from 'node:http'

export async function readJsonObject(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown> | undefined> {
  const parts: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBytes) return undefined
    parts.push(chunk as Buffer)
  }
  if (size === 0) return {}
  try {
    const v = JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

// A response body with its compressed forms, each made the first time a client asks for it and kept with the
// body: a page that is served again unchanged is compressed once per encoding, not once per request.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { addVary } from './headers.ts'
import { preferredEncoding, type Encoding } from './negotiate.ts'

// Below this, compressing saves too few bytes to pay for itself.
const MIN_COMPRESSED_BYTES = 1024

export class EncodedBody {
  private readonly compressed: Partial<Record<Exclude<Encoding, 'identity'>, Buffer>> = {}

  readonly identity: Buffer
  constructor(identity: Buffer) {
    this.identity = identity
  }

  in(enc: Encoding): Buffer {
    if (enc === 'identity') return this.identity
    return (this.compressed[enc] ??= enc === 'br'
      ? brotliCompressSync(this.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.length } })
      : gzipSync(this.identity, { level: 6 }))
  }
}

/** Sends `body` in the encoding the request prefers (Vary: Accept-Encoding either way). */
export function sendEncoded(req: FastifyRequest, reply: FastifyReply, body: EncodedBody): FastifyReply {
  addVary(reply, 'Accept-Encoding')
  if (body.identity.length < MIN_COMPRESSED_BYTES) return reply.send(body.identity)
  const enc = preferredEncoding(req.headers['accept-encoding'])
  if (enc !== 'identity') reply.header('content-encoding', enc)
  return reply.send(body.in(enc))
}

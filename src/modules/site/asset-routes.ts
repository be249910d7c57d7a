// The site's static files under their fingerprinted names (a year-long immutable cache, an ETag, Brotli or
// gzip made at start), and /favicon.ico pointing to the icon.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Assets } from './assets.ts'
import { addVary } from './headers.ts'
import { preferredEncoding } from './negotiate.ts'

export function registerAssetRoutes(scope: FastifyInstance, assets: Assets, notFound: (req: FastifyRequest, reply: FastifyReply) => FastifyReply): void {
  scope.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const asset = assets.byName.get(req.params.name)
    if (!asset) return notFound(req, reply)
    reply.header('content-type', asset.type)
    reply.header('etag', asset.etag)
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    addVary(reply, 'Accept-Encoding')
    if (etagMatches(req.headers['if-none-match'], asset.etag)) return reply.code(304).send()
    const enc = preferredEncoding(req.headers['accept-encoding'])
    if (enc !== 'identity') reply.header('content-encoding', enc)
    return reply.send(enc === 'br' ? asset.br : enc === 'gzip' ? asset.gzip : asset.identity)
  })

  scope.get('/favicon.ico', async (_req, reply) => reply.redirect(assets.icon, 301))
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

// "Exportar CSV" beside a back office list (issue 32 item 3): the list's URL with formato=csv answers the API's
// own CSV of the same search, filters and order, as the session's person, streamed through: the in-process
// request is read as a stream (light-my-request's payloadAsStream, which keeps back-pressure: the API reads its
// next batch only when the browser has taken the last), so no export is held whole in memory. The headers are
// the page's reads' own (api.ts), with Accept: text/csv.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiAnswer } from './api.ts'

/** Streams the API's CSV at `url` to `reply`; a refusal is answered back (its JSON read whole: it is small). */
export async function streamCsv(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, session: string, url: string)
  : Promise<{ sent: FastifyReply } | { refused: ApiAnswer }> {
  const res = await app.inject({
    method: 'GET', url, remoteAddress: req.ip, payloadAsStream: true,
    headers: {
      accept: 'text/csv', cookie: session, 'sec-fetch-site': 'same-origin', 'x-request-id': req.id,
      ...(req.headers['user-agent'] ? { 'user-agent': req.headers['user-agent'] } : {}),
    },
  })
  if (res.statusCode !== 200) {
    const chunks: Buffer[] = []
    for await (const chunk of res.stream()) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const json = /^application\/(problem\+)?json/.test(String(res.headers['content-type'] ?? ''))
    return { refused: { status: res.statusCode, body: json && text ? JSON.parse(text) as unknown : null } }
  }
  reply.header('content-type', res.headers['content-type']).header('content-disposition', res.headers['content-disposition'])
    .header('cache-control', 'no-store')
  return { sent: await reply.send(res.stream()) }
}

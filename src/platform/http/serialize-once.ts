// A route whose answer is the same object for many requests (a status snapshot, the subject list) sends its
// JSON serialized once per object, by the route's own response schema as Fastify would, not once per request.
import type { FastifyReply } from 'fastify'

/** One per route: remembers the last object sent and its JSON. */
export function serializeOnce(): (reply: FastifyReply, value: object) => FastifyReply {
  let last: { value: object, json: string } | undefined
  return (reply, value) => {
    if (last?.value !== value) last = { value, json: reply.serialize(value) as string }
    return reply.header('content-type', 'application/json; charset=utf-8').send(last.json)
  }
}

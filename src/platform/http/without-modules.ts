// What the HTTP policy answers when no module gives the credential check or the error pages: a service built
// of the platform and a few modules (a module's own tests, a worker's health server). Closed by default: no
// request ever has a credential, so every credentialed route answers 401; errors and unknown paths answer JSON.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Guard } from './gate.ts'
import { problem, sendProblem } from './problem.ts'

export const NO_CREDENTIALS: Guard = async (_req: FastifyRequest, reply: FastifyReply) => {
  // RFC 6750's challenge with no scheme-specific detail: there is no credential layer to name a resource.
  sendProblem(reply, problem('nao_autenticado', { 'www-authenticate': 'Bearer' }))
  return false
}

export const JSON_ERROR_PAGES = {
  error: () => undefined,
  notFound: async (_req: FastifyRequest, reply: FastifyReply) => sendProblem(reply, problem('nao_encontrado')),
}

// The website. Until its pages exist (issue 4), paths outside /api answer 404 nao_encontrado.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'
import type { ContactService } from '../contact/service.ts'
import { HttpProblem } from '../http/problem.ts'
import type { StatusSnapshot } from '../status/snapshot.ts'

export type SiteDeps = {
  config: Config
  contact: ContactService
  snapshot: StatusSnapshot
  /** The OpenAPI document, as served at /openapi.json. */
  openapi: () => unknown
}

export function siteRoutes(_deps: SiteDeps) {
  return async function (_app: FastifyInstance) {}
}

/** Paths outside /api that no route serves. */
export async function siteNotFound(_req: FastifyRequest, _reply: FastifyReply): Promise<never> {
  throw new HttpProblem(404, 'nao_encontrado')
}

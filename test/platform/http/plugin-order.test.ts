// The registration order is declared, not implied by line order: a plugin registered before one it depends
// on makes the app fail at start, naming what is missing.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import { loadConfig } from '../../../src/config.ts'
import { errorHandler } from '../../../src/platform/http/errors.ts'
import { gate, type Guard } from '../../../src/platform/http/gate.ts'
import { problem, sendProblem } from '../../../src/platform/http/problem.ts'
import { overload } from '../../../src/platform/http/overload.ts'
import { ROUTE_PREREQUISITES, routesPlugin } from '../../../src/platform/http/plugins.ts'
import { rateLimits } from '../../../src/platform/http/rate-limit.ts'
import { requestGuards } from '../../../src/platform/http/request-guards.ts'
import { echoRequestId } from '../../../src/platform/http/request-id.ts'

const config = loadConfig({})

/** A credential guard that accepts nothing, answering as the real one does without a credential. */
const refuseAll: Guard = async (_req, reply) => {
  sendProblem(reply, problem('nao_autenticado', { 'www-authenticate': 'Bearer realm="api"' }))
  return false
}

async function startFailure(register: (app: FastifyInstance) => void): Promise<Error> {
  const app = Fastify({ logger: false })
  try {
    register(app)
    await app.ready()
  } catch (err) {
    return err as Error
  } finally {
    await app.close().catch(() => {})
  }
  assert.fail('the app started')
}

describe('declared plugin order', () => {
  it('a feature\'s routes before the HTTP policy: start fails naming a missing policy', async () => {
    let added = false
    const routes: FastifyPluginAsync = async (app) => { app.get('/x', async () => 'x'); added = true }
    const err = await startFailure((app) => app.register(routesPlugin('x-routes', routes)))
    assert.equal((err as Error & { code?: string }).code, 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED')
    assert.ok(ROUTE_PREREQUISITES.some((name) => err.message.includes(`'${name}'`)), err.message)
    assert.equal(added, false, 'the routes were never added')
  })

  it('the routes after only some of the policies: start fails naming the first one missing', async () => {
    const err = await startFailure((app) => {
      app.register(requestGuards, { guards: [echoRequestId] })
      app.register(errorHandler, {})
      app.register(routesPlugin('x-routes', async () => {}, ['request-guards', 'error-handler', 'gate']))
    })
    assert.match(err.message, /'gate'/)
  })

  it('the gate before the rate limiter it uses', async () => {
    const err = await startFailure((app) =>
      app.register(gate, { budget: config.rateLimits.restrito, notFound: async (_req, reply) => reply, guard: refuseAll }))
    assert.match(err.message, /'rate-limit'/)
  })

  it('load shedding before the request guards that give its answers their request id', async () => {
    const err = await startFailure((app) => app.register(overload, config.overload))
    assert.match(err.message, /'request-guards'/)
  })

  it('in the declared order, the same plugins start', async () => {
    const app = Fastify({ logger: false })
    try {
      await app.register(requestGuards, { guards: [echoRequestId] })
      await app.register(overload, config.overload)
      await app.register(rateLimits, { redis: undefined, availability: undefined, isAllowlisted: () => false, nameSpace: 'rl:' })
      await app.register(gate, { budget: config.rateLimits.restrito, notFound: async (_req, reply) => reply.code(404).send(), guard: refuseAll })
      await app.ready()
      const res = await app.inject({ url: '/api/x' })
      assert.equal(res.statusCode, 401)
      assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
      assert.ok(res.headers['x-request-id'])
    } finally {
      await app.close()
    }
  })
})

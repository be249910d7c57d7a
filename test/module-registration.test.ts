// A module is one object in the list: its routes come after the HTTP policy (request id, the gate), what it
// provides reaches the modules after it, its background work starts when the app is ready and stops when it
// closes, and a list that cannot work stops the start with a message naming the module list.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AppModule, BackgroundWork } from '../src/platform/module.ts'
import { MODULES } from '../src/modules-list.ts'
import { testApp, useTestDatabase } from './helpers/fixture.ts'

declare module '../src/platform/module.ts' {
  interface ModuleServices {
    'test-greeter': { greet(name: string): string }
  }
  interface ModuleContributions {
    'test-point': { word: string }
  }
}

describe('a module added to the list', () => {
  const base = useTestDatabase()
  const events: string[] = []
  const work: BackgroundWork = { start: () => { events.push('started') }, stop: () => { events.push('stopped') } }
  const greeter: AppModule = {
    name: 'test-greeter',
    setup: () => ({ provides: { 'test-greeter': { greet: (name) => `olá, ${name}` } }, background: [work] }),
  }
  const reader: AppModule = {
    name: 'test-reader',
    setup: ({ use }) => {
      const { greet } = use('test-greeter')
      return {
        async routes(app) {
          app.get('/api/test-reader', { config: { credencial: {} } }, async () => ({ ok: true }))
          app.get('/test-reader', async () => ({ saudacao: greet('mundo') }))
        },
      }
    },
  }

  it('serves its routes behind the HTTP policy, with what an earlier module provides, and runs its work while the app lives', async (t) => {
    const app = await testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [...MODULES, greeter, reader] } })
    assert.deepEqual(events, ['started'])
    const page = await app.inject({ method: 'GET', url: '/test-reader', headers: { 'x-request-id': 'registo-1' } })
    assert.equal(page.statusCode, 200)
    assert.deepEqual(page.json(), { saudacao: 'olá, mundo' })
    assert.equal(page.headers['x-request-id'], 'registo-1')
    // A route that needs a credential is behind the gate like every other.
    const guarded = await app.inject({ method: 'GET', url: '/api/test-reader' })
    assert.equal(guarded.statusCode, 401)
    assert.equal(guarded.json().detail, 'nao_autenticado')
    await app.close()
    assert.deepEqual(events, ['started', 'stopped'])
  })

  it('a point a module opens gets every module\'s contribution, from modules listed after it too', async (t) => {
    const owner: AppModule = {
      name: 'test-owner',
      setup: ({ contributions }) => ({
        async routes(app) {
          app.get('/test-point', async () => ({ words: contributions('test-point').map((c) => c.word) }))
        },
      }),
    }
    const before: AppModule = { name: 'test-before', setup: () => ({ contributes: { 'test-point': { word: 'antes' } } }) }
    const after: AppModule = { name: 'test-after', setup: () => ({ contributes: { 'test-point': { word: 'depois' } } }) }
    const app = await testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [...MODULES, before, owner, after] } })
    assert.deepEqual((await app.inject({ url: '/test-point' })).json(), { words: ['antes', 'depois'] })
  })

  it('reading a point during setup, before every module gave its part, stops the start', async (t) => {
    const eager: AppModule = { name: 'test-eager', setup: ({ contributions }) => { contributions('test-point'); return {} } }
    await assert.rejects(testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [...MODULES, eager] } }),
      /contributions to "test-point" are read once every module's setup ran/)
  })

  it('a module that uses what no earlier one provides stops the start, naming it', async (t) => {
    await assert.rejects(testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [...MODULES, reader] } }),
      /no module before this one provides "test-greeter" \(src\/modules-list\.ts\)/)
  })

  it('one module at most gives the credential guard and the error pages', async (t) => {
    const twice: AppModule = { name: 'second-pages', setup: () => ({ errorPages: { error: () => undefined, notFound: async (_req, reply) => reply } }) }
    await assert.rejects(testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [...MODULES, twice] } }),
      /one module at most gives the errorPages; site, second-pages do/)
  })

  it('without the credential layer and the site, the platform is closed: every credentialed route 401, JSON errors', async (t) => {
    const app = await testApp(t, { db: base.db, env: { MAIL_WORKER: 'off' }, deps: { modules: [greeter, reader] } })
    const guarded = await app.inject({ method: 'GET', url: '/api/test-reader', headers: { authorization: 'Bearer fct_pat_qualquer' } })
    assert.equal(guarded.statusCode, 401)
    assert.equal(guarded.json().detail, 'nao_autenticado')
    const unknown = await app.inject({ method: 'GET', url: '/pagina-que-nao-existe' })
    assert.equal(unknown.statusCode, 404)
    assert.equal(unknown.json().detail, 'nao_encontrado')
    assert.equal((await app.inject({ method: 'GET', url: '/test-reader' })).json().saudacao, 'olá, mundo')
  })
})

it('the CLI lists every module\'s commands', async () => {
  const { runCli } = await import('../src/cli/commands.ts')
  const lines: string[] = []
  assert.equal(await runCli(['help'], { log: (l) => lines.push(l), error: (l) => lines.push(l) }), 0)
  for (const command of MODULES.flatMap((m) => m.commands ?? [])) {
    assert.match(lines.join('\n'), new RegExp(`^  ${command.name} `, 'm'), command.name)
  }
})

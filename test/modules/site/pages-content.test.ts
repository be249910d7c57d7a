// What the site's pages say, llms.txt, robots.txt and sitemap.xml, 405 and compression, HSTS in production, and errors answered as pages.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { problem } from '../../../src/platform/http/problem.ts'
import { siteError } from '../../../src/modules/site/routes.ts'
import { declareWindow, endWindow } from '../../../src/modules/status/maintenance.ts'
import { useTestApp, useTestDatabase } from '../../helpers/fixture.ts'
import { PAGES } from '../../helpers/site-pages.ts'
import { assertSiteHeaders } from './headers.ts'

// One database for the file; each suite builds its own app over it.
const tdb = useTestDatabase()

describe('site pages: negotiation and headers', () => {
  const ctx = useTestApp(() => ({ db: tdb.db, env: { PUBLIC_URL: 'https://site.example' } }))

  it('the home page says what the platform is, who it is for, what is public and how credentials are obtained', async () => {
    const md = (await ctx.app.inject({ url: '/', headers: { accept: 'text/markdown' } })).body
    assert.match(md, /factoring como serviço/i)
    assert.match(md, /## Para quem é/)
    assert.match(md, /## O que é público/)
    assert.match(md, /canal comercial/)
    assert.match(md, /Não existe cadastro de chaves por conta própria/)
    for (const link of ['/contato', '/status', '/docs', '/openapi.json', '/llms.txt']) assert.ok(md.includes(`](${link})`), link)
  })

  it('the contact page in Markdown lists the subjects from the API and the contract limits', async () => {
    const md = (await ctx.app.inject({ url: '/contato', headers: { accept: 'text/markdown' } })).body
    const { assuntos } = (await ctx.app.inject({ url: '/api/site/contato/assuntos' })).json() as {
      assuntos: { codigo: string, rotulo: string, destino: string }[],
    }
    for (const s of assuntos) assert.ok(md.includes(`| \`${s.codigo}\` | ${s.rotulo} | ${s.destino} |`), s.codigo)
    assert.match(md, /\| `nome` \| sim \| de 2 a 120 caracteres \|/)
    assert.match(md, /\| `mensagem` \| sim \| de 10 a 4000 caracteres \|/)
    assert.match(md, /\| `empresa` \| não \| até 140 caracteres \|/)
  })

  it('the status page in Markdown shows the live values of the snapshot', async () => {
    const snap = await ctx.app.deps.snapshot.current()
    const md = (await ctx.app.inject({ url: '/status', headers: { accept: 'text/markdown' } })).body
    assert.ok(md.includes(`(\`${snap.status}\`)`), 'overall state')
    assert.ok(md.includes(`\`${snap.verificado_em}\``), 'time of the check')
    for (const s of snap.servicos) {
      const row = md.split('\n').find((l) => l.includes(`(\`${s.nome}\`)`))
      assert.ok(row, `a row for ${s.nome}`)
      assert.match(row!, s.ok ? /\| ok \|/ : /com falha/)
    }
    assert.equal((await ctx.app.inject({ url: '/status' })).headers['cache-control'], 'no-store')
  })

  it('a maintenance window shows as a banner on /status: upcoming, then none once ended', async () => {
    const now = new Date()
    const w = await declareWindow(tdb.db.orm, {
      inicio: new Date(now.getTime() + 86_400_000), fim: new Date(now.getTime() + 90_000_000), mensagem: 'Migração do banco <rápida>',
    }, now)
    try {
      await ctx.app.deps.snapshot.refresh()
      const html = (await ctx.app.inject({ url: '/status' })).body
      assert.match(html, /<div id="manutencao" class="aviso aviso-manutencao"><p><strong id="manutencao-texto">Manutenção programada de [^<]+ \(horário de Brasília\): Migração do banco &lt;rápida&gt;\.<\/strong>/)
      const md = (await ctx.app.inject({ url: '/status', headers: { accept: 'text/markdown' } })).body
      assert.match(md, /^> \*\*Manutenção programada de .+: Migração do banco \\<rápida\\>\.\*\*$/m)
      assert.match(md, /\(`operacional`\)/, 'an upcoming window does not change the overall state')
    } finally {
      await endWindow(tdb.db.orm, w.id, new Date())
      await ctx.app.deps.snapshot.refresh()
    }
    assert.match((await ctx.app.inject({ url: '/status' })).body, /<div id="manutencao" class="aviso aviso-manutencao" hidden>/)
  })

  it('the docs page renders every operation of /openapi.json and the guide', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> }
    const md = (await ctx.app.inject({ url: '/docs', headers: { accept: 'text/markdown' } })).body
    const html = (await ctx.app.inject({ url: '/docs' })).body
    let count = 0
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        count++
        assert.ok(md.includes(`#### ${method.toUpperCase()} /api${path}\n`), `${method} ${path} in Markdown`)
        assert.match(html, new RegExp(`<h4 id="[^"]+">${method.toUpperCase()} /api${path}</h4>`), `${method} ${path} in HTML`)
      }
    }
    assert.equal(count, 7)
    for (const section of ['### Endereço base', '### Limites de requisições', '### Códigos de erro', '### Como ler um 422']) {
      assert.ok(md.includes(section), section)
    }
    // The 422 example is the API's real answer.
    const example = /```json\n([\s\S]*?)\n```/.exec(md.slice(md.indexOf('### Como ler um 422')))![1]!
    const real = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: { nome: 'M', email: 'maria@empresa', mensagem: 'Olá' } })
    assert.deepEqual(JSON.parse(example), real.json())
    assert.doesNotMatch(html, /cdn|unpkg|jsdelivr/i)
  })

  it('the privacy page says what is collected, where it goes and how long it is kept', async () => {
    const md = (await ctx.app.inject({ url: '/privacidade', headers: { accept: 'text/markdown' } })).body
    assert.match(md, /## Quais dados coletamos/)
    assert.match(md, /## Para onde vão/)
    assert.match(md, /## Por quanto tempo guardamos/)
    assert.match(md, /apagados do nosso sistema 365 dias depois/)
    assert.match(md, /comercial@factoring\.example/)
  })

  it('a page path with another method answers 405 with Allow, as a page', async () => {
    for (const [method, url, allow] of [['DELETE', '/docs', 'GET, HEAD'], ['PUT', '/contato', 'GET, HEAD, POST'], ['POST', '/', 'GET, HEAD']] as const) {
      const res = await ctx.app.inject({ method, url })
      assert.equal(res.statusCode, 405, `${method} ${url}`)
      assert.equal(res.headers.allow, allow)
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
      assertSiteHeaders(res.headers, `${method} ${url}`)
    }
    // An error's status is not hidden behind a 406.
    const json = await ctx.app.inject({ method: 'DELETE', url: '/docs', headers: { accept: 'application/json' } })
    assert.equal(json.statusCode, 405)
  })

  it('llms.txt lists every page and the OpenAPI document', async () => {
    const res = await ctx.app.inject({ url: '/llms.txt', headers: { host: 'evil.example' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assertSiteHeaders(res.headers, 'llms.txt')
    assert.match(res.body, /^# \S/)
    assert.match(res.body, /^> /m)
    for (const p of PAGES.filter((p) => p.status === 200)) assert.match(res.body, new RegExp(`\\]\\(https://site\\.example${p.path === '/' ? '/' : p.path}\\)`), p.path)
    assert.match(res.body, /\]\(https:\/\/site\.example\/openapi\.json\)/)
    assert.doesNotMatch(res.body, /evil/, 'links come from PUBLIC_URL, never from the Host header')
    assert.match(res.body, /text\/markdown/)
  })

  it('robots.txt and sitemap.xml exist and name the pages', async () => {
    const robots = await ctx.app.inject({ url: '/robots.txt', headers: { host: 'evil.example' } })
    assert.equal(robots.statusCode, 200)
    assert.match(robots.body, /^User-agent: \*$/m)
    assert.match(robots.body, /^Disallow: \/api\/$/m)
    assert.match(robots.body, /^Sitemap: https:\/\/site\.example\/sitemap\.xml$/m)
    assertSiteHeaders(robots.headers, 'robots.txt')
    const sitemap = await ctx.app.inject({ url: '/sitemap.xml', headers: { host: 'evil.example' } })
    assert.equal(sitemap.statusCode, 200)
    assert.equal(sitemap.headers['content-type'], 'application/xml; charset=utf-8')
    for (const p of PAGES.filter((p) => p.status === 200)) assert.ok(sitemap.body.includes(`<loc>https://site.example${p.path}</loc>`), p.path)
    assertSiteHeaders(sitemap.headers, 'sitemap.xml')
  })

  it('a forged Host header does not reach the documents that carry absolute URLs', async () => {
    const res = await ctx.app.inject({ url: '/sitemap.xml', headers: { host: 'evil.example"><script>' } })
    assert.doesNotMatch(res.body, /evil|<script/)
    assert.match(res.body, /<loc>https:\/\/site\.example\/<\/loc>/)
  })

  it('API responses are left as they were: no site headers under /api', async () => {
    for (const url of ['/api/health', '/api/status', '/api/nada', '/api/site/contato/assuntos']) {
      const res = await ctx.app.inject({ url })
      assert.equal(res.headers['content-security-policy'], undefined, url)
      assert.doesNotMatch(String(res.headers.vary ?? ''), /Accept(?!-)/, url)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
    }
  })

  it('pages are compressed when the client accepts it', async () => {
    for (const [enc, expected] of [['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['identity', undefined]] as const) {
      const res = await ctx.app.inject({ url: '/docs', headers: { 'accept-encoding': enc } })
      assert.equal(res.headers['content-encoding'], expected, enc)
      assert.match(String(res.headers.vary), /Accept-Encoding/)
    }
  })
})

describe('site headers in production', () => {
  const ctx = useTestApp(() => ({ db: tdb.db, env: { AMBIENTE: 'producao', MAIL_SANDBOX: 'on' } }))

  it('every site response carries HSTS with AMBIENTE=producao; the API does not', async () => {
    for (const url of ['/', '/status', '/nada', '/llms.txt', '/robots.txt']) {
      assertSiteHeaders((await ctx.app.inject({ url })).headers, url, true)
    }
    assertSiteHeaders((await ctx.app.inject({ url: '/', headers: { accept: 'application/json' } })).headers, '406', true)
    assert.equal((await ctx.app.inject({ url: '/api/health' })).headers['strict-transport-security'], undefined)
  })
})

describe('siteError: errors raised elsewhere on a site path, answered as pages', () => {
  const ctx = useTestApp(() => ({
    db: tdb.db,
    // What the app's error handler would do for a non-/api path (see the report of issue 4).
    beforeReady: (app) => app.register(async (child) => {
      child.setErrorHandler((err, req, reply) => siteError(err, req, reply) ?? reply.send(err))
      child.get('/teste/limite', async (_req, reply) => {
        reply.header('retry-after', '42')
        throw problem('limite_de_requisicoes')
      })
      child.get('/teste/falha', async () => { throw new Error('segredo interno') })
    }),
  }))

  it('a 429 and a 500 become negotiated pages, without the stack', async () => {
    const limited = await ctx.app.inject({ url: '/teste/limite' })
    assert.equal(limited.statusCode, 429)
    assert.equal(limited.headers['retry-after'], '42')
    assert.match(limited.body, /<h1>Muitas requisições<\/h1>/)
    assertSiteHeaders(limited.headers, '429 page')
    const failed = await ctx.app.inject({ url: '/teste/falha', headers: { accept: 'text/markdown' } })
    assert.equal(failed.statusCode, 500)
    assert.match(failed.body, /^# Erro interno/)
    assert.doesNotMatch(failed.body, /segredo|at /)
  })
})

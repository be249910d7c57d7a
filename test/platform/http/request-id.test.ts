// X-Request-ID: a sane incoming id is kept, anything else replaced by a UUID; it is echoed on every
// response, carried by every log line of the request and stored in the audit row of a contact.
// Log lines never carry the contact's personal data.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { eq, sql } from 'drizzle-orm'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditoria, contato } from '../../../src/platform/db/schema.ts'
import { contactBody } from '../../helpers/app.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** Lines of work that runs outside any request (the outbox worker logs as a `component`) may interleave with a request's. */
const isBackground = (l: LogLine) => typeof l.component === 'string' && l.reqId === undefined
type LogLine = Record<string, unknown> & { reqId?: string, msg?: string }

describe('X-Request-ID', () => {
  const logs: LogLine[] = []
  // Trace level: whatever Fastify or the app may log, the checks below see it.
  const ctx = useTestApp({ logs, logLevel: 'trace' })

  /** Sends one request and returns its answer with the log lines written while it ran. */
  async function traced(opts: InjectOptions): Promise<{ res: LightMyRequestResponse, lines: LogLine[] }> {
    const from = logs.length
    const res = await ctx.app.inject(opts)
    const id = String(res.headers['x-request-id'])
    // The access line is written from onResponse, just after the answer is out.
    for (let i = 0; i < 100 && !logs.slice(from).some((l) => l.reqId === id && l.msg === 'request'); i++) await sleep(5)
    return { res, lines: logs.slice(from) }
  }

  describe('incoming ids', () => {
    const sane = ['abc', 'a'.repeat(128), 'Az09._-', '4bf92f3577b34da6a3ce929d0e0e4736', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', '.', '-', '_']
    for (const id of sane) {
      it(`keeps a sane id: ${JSON.stringify(id.length > 40 ? `${id.slice(0, 10)}…(${id.length})` : id)}`, async () => {
        const res = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': id } })
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['x-request-id'], id)
      })
    }

    const insane: [string, string][] = [
      ['too long (129)', 'a'.repeat(129)],
      ['far too long', 'x'.repeat(10_000)],
      ['empty', ''],
      ['a space', 'a b'],
      ['a tab', 'a\tb'],
      ['unicode', 'ação'],
      ['emoji', 'id-🚀'],
      ['CRLF header injection', 'x\r\nSet-Cookie: a=b'],
      ['LF', 'x\nfoo'],
      ['slash', 'a/b'],
      ['markup', '<script>alert(1)</script>'],
      ['JSON', '{"a":1}'],
      ['semicolon', 'a;b'],
      ['percent-encoding', 'a%20b'],
    ]
    for (const [what, id] of insane) {
      it(`replaces an insane id by a UUID: ${what}`, async () => {
        const res = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': id } })
        assert.equal(res.statusCode, 200)
        assert.match(String(res.headers['x-request-id']), UUID)
        assert.equal(res.headers['set-cookie'], undefined)
      })
    }

    it('replaces a repeated header by a UUID', async () => {
      const res = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': ['abc', 'def'] as unknown as string } })
      assert.match(String(res.headers['x-request-id']), UUID)
    })

    it('makes a fresh UUID for each request without an id', async () => {
      const ids = new Set<string>()
      for (let i = 0; i < 20; i++) {
        const res = await ctx.app.inject({ url: '/api/version' })
        assert.match(String(res.headers['x-request-id']), UUID)
        ids.add(String(res.headers['x-request-id']))
      }
      assert.equal(ids.size, 20)
    })
  })

  describe('every response carries it', () => {
    const cases: [number, InjectOptions][] = [
      [200, { url: '/api/health' }],
      [200, { method: 'HEAD', url: '/api/status' }],
      [204, { method: 'OPTIONS', url: '/api/health', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } }],
      [401, { url: '/api/operacoes' }],
      [401, { method: 'PROPFIND' as 'GET', url: '/api/operacoes' }],
      [404, { url: '/nada' }],
      [405, { method: 'DELETE', url: '/api/status' }],
      [413, {
        method: 'POST', url: '/api/site/contato', payload: JSON.stringify(contactBody({ mensagem: 'x'.repeat(100_000) })),
        headers: { 'content-type': 'application/json' },
      }],
      [422, { method: 'POST', url: '/api/site/contato', payload: { nome: 'x' } }],
      [422, { method: 'POST', url: '/api/site/contato', payload: '{"nome":', headers: { 'content-type': 'application/json' } }],
      [200, { url: '/openapi.json' }],
    ]
    for (const [status, opts] of cases) {
      it(`${status} ${opts.method ?? 'GET'} ${opts.url}: echoed when sane, a UUID otherwise`, async () => {
        const id = `resp-${status}-${Math.random().toString(36).slice(2)}`
        const kept = await ctx.app.inject({ ...opts, remoteAddress: '203.0.113.1', headers: { ...opts.headers, 'x-request-id': id } })
        assert.equal(kept.statusCode, status)
        assert.equal(kept.headers['x-request-id'], id)
        const made = await ctx.app.inject({ ...opts, remoteAddress: '203.0.113.2', headers: { ...opts.headers, 'x-request-id': 'não' } })
        assert.equal(made.statusCode, status)
        assert.match(String(made.headers['x-request-id']), UUID)
      })
    }

    it('429: echoed on a rate-limited answer', async () => {
      const ip = '203.0.113.9'
      let res: LightMyRequestResponse | undefined
      for (let i = 0; i < 6; i++) {
        res = await ctx.app.inject({
          method: 'POST', url: '/api/site/contato', payload: { nome: 'x' }, remoteAddress: ip, headers: { 'x-request-id': `limited-${i}` },
        })
      }
      assert.equal(res!.statusCode, 429)
      assert.equal(res!.headers['x-request-id'], 'limited-5')
    })
  })

  describe('log lines', () => {
    it('every line of a request carries its id as reqId', async () => {
      const cases: InjectOptions[] = [
        { url: '/api/health' },
        { url: '/api/status' },
        { url: '/api/operacoes' },
        { method: 'DELETE', url: '/api/status' },
        { url: '/nada' },
        { method: 'POST', url: '/api/site/contato', payload: { nome: 'x' } },
        { method: 'POST', url: '/api/site/contato', payload: contactBody() },
      ]
      for (const [i, opts] of cases.entries()) {
        const id = `log-${i}-${Math.random().toString(36).slice(2)}`
        const { res, lines } = await traced({ ...opts, remoteAddress: '203.0.113.20', headers: { 'x-request-id': id } })
        assert.equal(res.headers['x-request-id'], id)
        const what = `${opts.method ?? 'GET'} ${opts.url}`
        assert.equal(lines.filter((l) => l.msg === 'request').length, 1, `${what}: one access line`)
        assert.ok(!lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed'), `${what}: not Fastify's two lines`)
        for (const line of lines.filter((l) => !isBackground(l))) assert.equal(line.reqId, id, `${what}: ${JSON.stringify(line)}`)
        if (res.statusCode === 202) assert.ok(lines.some((l) => l.msg === 'contact accepted'), 'the contact is logged')
      }
    })

    it('a replaced id is the one in the log lines', async () => {
      const { res, lines } = await traced({ url: '/api/version', headers: { 'x-request-id': 'bad id' } })
      const id = String(res.headers['x-request-id'])
      assert.match(id, UUID)
      assert.ok(lines.some((l) => l.msg === 'request'))
      for (const line of lines.filter((l) => !isBackground(l))) assert.equal(line.reqId, id)
      assert.ok(!JSON.stringify(lines).includes('bad id'))
    })
  })

  describe('audit trail', () => {
    async function auditOf(protocolo: string) {
      return ctx.app.deps.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo))
    }

    it('the audit row of an accepted contact holds the request id', async () => {
      const id = `audit-${Math.random().toString(36).slice(2)}`
      const res = await ctx.app.inject({
        method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: '203.0.113.30', headers: { 'x-request-id': id },
      })
      assert.equal(res.statusCode, 202)
      assert.equal(res.headers['x-request-id'], id)
      const rows = await auditOf(res.json().protocolo)
      assert.equal(rows.length, 1)
      assert.equal(rows[0]!.requestId, id)
      assert.equal(rows[0]!.acao, 'contato.recebido')
      const [stored] = await ctx.app.deps.db.orm.select({ requestId: contato.requestId }).from(contato).where(eq(contato.protocolo, res.json().protocolo))
      assert.equal(stored!.requestId, id)
    })

    it('a generated id is the one stored', async () => {
      const res = await ctx.app.inject({
        method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: '203.0.113.31', headers: { 'x-request-id': 'x'.repeat(200) },
      })
      assert.equal(res.statusCode, 202)
      const id = String(res.headers['x-request-id'])
      assert.match(id, UUID)
      const rows = await queryRows<{ request_id: string }>(ctx.app.deps.db.orm, sql`SELECT request_id FROM auditoria WHERE protocolo = ${res.json().protocolo}`)
      assert.deepEqual(rows, [{ request_id: id }])
    })
  })

  describe('personal data stays out of the logs', () => {
    const person = {
      nome: 'Joaquina Pereira Albuquerque',
      email: 'joaquina.albuquerque@exemplo-pessoal.com.br',
      telefone: '+55 11 98765-4321',
      empresa: 'Albuquerque Têxteis Ltda',
      mensagem: 'Preciso antecipar duplicatas da minha confecção, valor aproximado R$ 87.654,32.',
    }
    const secrets = Object.values(person).concat(['joaquina', 'Albuquerque', '98765', '87.654'])

    function assertClean(lines: LogLine[], what: string) {
      assert.ok(lines.length > 0, `${what}: something was logged`)
      const text = JSON.stringify(lines).toLowerCase()
      for (const s of secrets) assert.ok(!text.includes(s.toLowerCase()), `${what}: "${s}" in ${JSON.stringify(lines)}`)
    }

    it('an accepted contact, and the same one sent again', async () => {
      for (const attempt of ['first', 'double click']) {
        const { res, lines } = await traced({ method: 'POST', url: '/api/site/contato', payload: contactBody(person), remoteAddress: '203.0.113.40' })
        assert.equal(res.statusCode, 202, attempt)
        assertClean(lines, attempt)
      }
    })

    it('refused contacts: invalid, malformed, not JSON, too large, rate limited', async () => {
      const ip = '203.0.113.41'
      const bodies: [number, InjectOptions][] = [
        [422, { payload: contactBody({ ...person, email: `${person.nome} <${person.email}>` }) }],
        [422, { payload: contactBody({ ...person, mensagem: 'curta' }) }],
        [422, {
          payload: `{"nome":"${person.nome}","email":"${person.email}","mensagem":"${person.mensagem}"`, headers: { 'content-type': 'application/json' },
        }],
        [422, { payload: new URLSearchParams(person).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
        [413, { payload: JSON.stringify({ ...person, site: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }],
        [429, { payload: contactBody(person) }],
      ]
      for (const [status, opts] of bodies) {
        const { res, lines } = await traced({ method: 'POST', url: '/api/site/contato', remoteAddress: ip, ...opts })
        assert.equal(res.statusCode, status)
        assertClean(lines, `${status} ${String(opts.headers?.['content-type'] ?? '')}`)
      }
    })

    // A Drizzle query error's message lists the query's parameters: the error may be logged, its message not.
    it('a contact that cannot be stored (503)', async () => {
      // A trigger makes the insert fail after the request was read and validated.
      const db = ctx.app.deps.db
      await asOwner(db, `CREATE FUNCTION test_recusa_contato() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'recusado pelo teste'; END $$`)
      await asOwner(db, 'CREATE TRIGGER test_recusa_contato BEFORE INSERT ON contato FOR EACH ROW EXECUTE FUNCTION test_recusa_contato()')
      try {
        // Not the payload sent above, which would be answered as a double click without an insert.
        const payload = contactBody({ ...person, mensagem: `${person.mensagem} Segunda tentativa.` })
        const { res, lines } = await traced({ method: 'POST', url: '/api/site/contato', payload, remoteAddress: '203.0.113.42' })
        assert.equal(res.statusCode, 503)
        assert.deepEqual(res.json(), { detail: 'servico_indisponivel' })
        assertClean(lines, '503')
      } finally {
        await asOwner(db, 'DROP TRIGGER test_recusa_contato ON contato; DROP FUNCTION test_recusa_contato()')
      }
    })
  })
})

// `contatos listar`: recent contacts with their delivery state and spam reason, in Brasília time, without
// personal data; --spam, --desde, --limite, --json; --help; exit 2 on bad arguments.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { contactBody } from '../helpers/app.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestApp } from '../helpers/fixture.ts'

describe('contatos listar', () => {
  const ctx = useTestApp({ contactBudget: 100, env: { MAIL_WORKER: 'off' } })
  const { lines, cli } = cliRunner(() => ctx.db)
  const posted: Record<string, string> = {}
  before(async () => {
    const post = async (name: string, body: Record<string, unknown>) => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: body })
      assert.equal(res.statusCode, 202)
      posted[name] = (res.json() as { protocolo: string }).protocolo
    }
    await post('person', contactBody({ nome: 'Pessoa Real', email: 'pessoa@real.com.br', assunto: 'financeiro' }))
    await post('honeypot', contactBody({ nome: 'Robo Um', email: 'robo1@spam.example', website: 'http://x.example' }))
    await post('forged', contactBody({ nome: 'Robo Dois', email: 'robo2@spam.example', token_formulario: 'v1.abc.def' }))
    const site = await ctx.app.inject({
      method: 'POST', url: '/contato', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(contactBody({ nome: 'Robo Tres' }) as Record<string, string>).toString(),
    })
    posted.site = /id="protocolo">([^<]+)</.exec(site.body)![1]!
  })

  const rowOf = (protocolo: string) => lines.find((l) => l.startsWith(protocolo))?.split('\t')

  it('lists recent contacts newest first: protocolo, Brasília time, subject, delivery, spam reason; no personal data', async () => {
    assert.equal(await cli('contatos', 'listar'), 0)
    assert.deepEqual(lines[0]!.split('\t'), ['PROTOCOLO', 'RECEBIDO (BRASÍLIA)', 'ASSUNTO', 'ENTREGA', 'SPAM'])
    assert.deepEqual(lines.slice(1).map((l) => l.split('\t')[0]), [posted.site, posted.forged, posted.honeypot, posted.person])
    const person = rowOf(posted.person!)!
    assert.deepEqual(person.slice(2), ['financeiro', 'pendente', '-'])
    assert.deepEqual(rowOf(posted.honeypot!)!.slice(2), ['comercial', '-', 'honeypot'])
    assert.deepEqual(rowOf(posted.forged!)!.slice(3), ['-', 'token'])
    assert.deepEqual(rowOf(posted.site!)!.slice(3), ['-', 'token'], 'the site form without its token')
    const out = lines.join('\n')
    for (const personal of ['Pessoa Real', 'pessoa@real.com.br', 'Robo', 'spam.example', 'antecipação']) assert.ok(!out.includes(personal), personal)
  })

  it('shows the time in Brasília with its offset, as every CLI command does; the --json form in UTC ISO', async () => {
    assert.equal(await cli('contatos', 'listar', '--json'), 0)
    const rows = JSON.parse(lines[0]!) as {
      protocolo: string, criado_em: string, assunto: string, entrega: string | null, spam: string | null, dados_apagados: boolean,
    }[]
    const person = rows.find((r) => r.protocolo === posted.person)!
    assert.deepEqual({ ...person, criado_em: undefined }, {
      protocolo: posted.person, criado_em: undefined, assunto: 'financeiro', entrega: 'pendente', spam: null, dados_apagados: false,
    })
    assert.equal(rows.find((r) => r.protocolo === posted.honeypot)!.spam, 'honeypot')
    assert.equal(await cli('contatos', 'listar'), 0)
    const utc = new Date(person.criado_em)
    const expected = `${new Date(utc.getTime() - 3 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')} (-03:00)`
    assert.equal(rowOf(posted.person!)![1], expected)
  })

  it('--spam lists only spam, with its reason', async () => {
    assert.equal(await cli('contatos', 'listar', '--spam'), 0)
    assert.deepEqual(
      lines.slice(1).map((l) => [l.split('\t')[0], l.split('\t')[4]]),
      [[posted.site, 'token'], [posted.forged, 'token'], [posted.honeypot, 'honeypot']],
    )
  })

  it('--desde and --limite narrow the list', async () => {
    assert.equal(await cli('contatos', 'listar', '--desde', '2099-01-01'), 0)
    assert.deepEqual(lines, ['no contacts'])
    assert.equal(await cli('contatos', 'listar', '--spam', '--desde', '2099-01-01T00:00:00Z'), 0)
    assert.deepEqual(lines, ['no spam'])
    assert.equal(await cli('contatos', 'listar', '--desde', '2000-01-01', '--limite', '1'), 0)
    assert.deepEqual(lines.slice(1).map((l) => l.split('\t')[0]), [posted.site])
  })

  it('--help explains the options, exit 0', async () => {
    assert.equal(await cli('contatos', 'listar', '--help'), 0)
    const out = lines.join('\n')
    for (const o of ['contatos listar', '--spam', '--desde', '--limite', '--json', 'contatos expurgar']) assert.ok(out.includes(o), o)
    assert.equal(await cli('contatos', '--help'), 0)
  })

  for (const [args, message] of [
    [['--desde', 'ontem'], /--desde must be a date/],
    [['--desde', '2026-02-30'], /--desde must be a date/],
    [['--desde', '2026-11-23T10:00:00'], /--desde must be a date/],
    [['--desde'], /--desde/],
    [['--limite', '0'], /--limite must be a whole number/],
    [['--limite', '1e3'], /--limite must be a whole number/],
    [['--todos'], /--todos/],
    [['extra'], /extra/],
  ] as const) {
    it(`bad arguments (${args.join(' ')}): a clear error, exit 2`, async () => {
      assert.equal(await cli('contatos', 'listar', ...args), 2)
      assert.match(lines[0]!, /^error: /)
      assert.match(lines[0]!, message)
    })
  }
})

// The site's logic without HTTP: Accept and Accept-Encoding negotiation, one Markdown source to two
// answers, escaping of live values, the status and form components, the OpenAPI rendering, form reading.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import { NonJsonBody } from '../../../src/platform/http/request-body.ts'
import { endpointsOf, referenceMarkdown, typeWords } from '../../../src/modules/site/api-reference.ts'
import { formHtml, formInput } from '../../../src/modules/site/contact-form.ts'
import { raw } from '../../../src/platform/lib/html.ts'
import { MissingPlaceholder, renderSource } from '../../../src/modules/site/content.ts'
import { fieldMessage, maintenanceText, tooManyRequests } from '../../../src/modules/site/format.ts'
import { escapeMarkdown, markdownToHtml } from '../../../src/modules/site/markdown.ts'
import { preferredEncoding, preferredFormat } from '../../../src/modules/site/negotiate.ts'
import { statusHtml, statusMarkdown } from '../../../src/modules/site/status-view.ts'
import type { StatusOutT as StatusView } from '../../../src/modules/status/schemas.ts'

describe('Accept negotiation', () => {
  it('follows q-values, specificity and q=0', () => {
    const cases: [string | undefined, string | null][] = [
      [undefined, 'html'], ['', 'html'], ['*/*', 'html'], ['text/*', 'html'],
      ['text/markdown', 'markdown'], ['TEXT/Markdown', 'markdown'], ['text/markdown; charset=utf-8', 'markdown'],
      ['text/markdown; variant=GFM; q=0.9, text/html; q=0.8', 'markdown'],
      ['text/markdown;q=0.2, text/html;q=0.3', 'html'], ['text/markdown;q=0.3, text/html;q=0.2', 'markdown'],
      ['text/markdown;q=0, */*', 'html'], ['text/html;q=0, */*', 'markdown'], ['text/html;q=0.5, */*', 'markdown'],
      ['application/json', null], ['*/*;q=0', null], ['text/plain', null],
    ]
    for (const [accept, expected] of cases) assert.equal(preferredFormat(accept), expected, String(accept))
  })

  it('picks br, then gzip, unless refused', () => {
    assert.equal(preferredEncoding('gzip, deflate, br, zstd'), 'br')
    assert.equal(preferredEncoding('gzip'), 'gzip')
    assert.equal(preferredEncoding('br;q=0, gzip'), 'gzip')
    assert.equal(preferredEncoding('gzip;q=0.5, br;q=0.1'), 'gzip')
    assert.equal(preferredEncoding(undefined), 'identity')
    assert.equal(preferredEncoding('deflate'), 'identity')
  })
})

describe('one Markdown source, two answers', () => {
  it('fills values and blocks; the Markdown keeps the source, the HTML renders it', () => {
    const src = '# Título {{n}}\n\nPrimeiro parágrafo com **ênfase**.\n\n{{bloco}}\n\nFim.\n'
    const r = renderSource(src, { n: '7' }, { bloco: { markdown: '- item', html: raw('<p id="b">bloco</p>') } })
    assert.equal(r.markdown, '# Título 7\n\nPrimeiro parágrafo com **ênfase**.\n\n- item\n\nFim.\n')
    assert.equal(r.title, 'Título 7')
    assert.equal(r.description, 'Primeiro parágrafo com ênfase.')
    assert.match(String(r.html), /<h1>Título 7<\/h1>[\s\S]*<strong>ênfase<\/strong>[\s\S]*<p id="b">bloco<\/p>[\s\S]*<p>Fim\.<\/p>/)
  })

  it('refuses a placeholder it cannot fill', () => {
    assert.throws(() => renderSource('# A\n\n{{nada}}\n'), MissingPlaceholder)
    assert.throws(() => renderSource('# A {{nada}}\n'), MissingPlaceholder)
  })

  it('raw HTML in Markdown is shown as text, never passed through; unsafe link schemes are dropped', () => {
    const html = String(markdownToHtml('<script>alert(1)</script>\n\nTexto <img src=x onerror=alert(1)> [x](javascript:alert(1))'))
    assert.doesNotMatch(html, /<script|<img|javascript:/)
    assert.match(html, /&lt;script&gt;/)
  })

  it('sections get ids to link to; tables get row headers', () => {
    const html = String(markdownToHtml('## Seção Ação\n\n| A | B |\n|---|---|\n| x | y |\n'))
    assert.match(html, /<h2 id="secao-acao">/)
    assert.match(html, /<th scope="col">A<\/th>/)
    assert.match(html, /<th scope="row">x<\/th><td data-rotulo="B">y<\/td>/)
  })

  it('escapeMarkdown keeps live text from becoming markup', () => {
    const evil = 'a | b *c* `d` [e](f) <b>g</b>\nh'
    const html = String(markdownToHtml(`| x |\n|---|\n| ${escapeMarkdown(evil)} |\n`))
    assert.doesNotMatch(html, /<em>|<code>|<a |<b>/)
    assert.match(html, /a \| b \*c\* `d` \[e\]\(f\) &lt;b&gt;g&lt;\/b&gt; h/)

    assert.equal(String(markdownToHtml(escapeMarkdown('&amp; &#60; A & B'))), '<p>&amp;amp; &amp;#60; A &amp; B</p>\n', 'references stay as typed')
    assert.equal(escapeMarkdown('A & B'), 'A & B', 'a lone & needs no escape')
  })

  it('escapeMarkdown opens no line and no block: every break a reader takes for one, and markers at a line\'s start', () => {
    // A signatory's name that would forge a borderô's totals (the red team's case), then each marker alone.
    const forged = 'Ana\r\r## Totais (corrigidos)\r\r- Valor líquido: R$ 1.000.000,00\u2028Ana'
    const html = String(markdownToHtml(`Assinaturas\n\n${escapeMarkdown(forged)}\n`))
    assert.doesNotMatch(html, /<h2|<li|<ul/, html)
    for (const opener of ['# Título', '## Totais', '- item', '+ item', '> citação', '1. item', '2) item', '===', '  # recuado']) {
      const out = String(markdownToHtml(`${escapeMarkdown(opener)}\n`))
      assert.match(out, /^<p>/, `${opener}: ${out}`)
      assert.equal(out.replace(/<\/?p>|\n/g, '').replace(/&gt;/g, '>').trim(), opener.trim(), 'it reads as typed')
    }
    assert.equal(escapeMarkdown('11.222.333/0001-81'), '11.222.333/0001-81', 'a number that opens no list stays clean to read')
  })
})

const STATUS: StatusView = {
  status: 'manutencao',
  ambiente: 'producao',
  versao: '1.2.3',
  servicos: [
    { nome: 'api', ok: true, latencia_ms: null, modo: null },
    { nome: 'banco', ok: false, latencia_ms: 1503.4, modo: 'postgres' },
    { nome: 'novo', ok: true, latencia_ms: 3.25, modo: 'x' },
  ],
  manutencao: { inicio: '2026-12-01T05:00:00.000Z', fim: '2026-12-01T07:00:00.000Z', mensagem: 'Troca <b>de</b> | banco', em_curso: true, anunciada: true },
  verificado_em: '2026-12-01T05:30:00.000Z',
}

describe('status component', () => {
  it('Markdown: overall state, each service with ok, latency and mode, the window, the time', () => {
    const md = statusMarkdown(STATUS)
    assert.match(md, /^> \*\*Manutenção em andamento: Troca \\<b\\>de\\<\/b\\> \\\| banco\. Previsão de término: 01\/12\/2026, 04:00:00/m)
    assert.match(md, /\*\*Estado geral: Em manutenção\*\* \(`manutencao`\)/)
    assert.match(md, /\| API pública \(`api`\) \| ok \| — \| — \|/)
    assert.match(md, /\| Banco de dados \(`banco`\) \| \*\*com falha\*\* \| 1503 ms \| PostgreSQL \|/)
    assert.match(md, /\| novo \(`novo`\) \| ok \| 3,3 ms \| x \|/)
    assert.match(md, /Verificado em 01\/12\/2026, 02:30:00 \(horário de Brasília\) — `2026-12-01T05:30:00.000Z`/)
  })

  it('HTML: the banner shown, live values escaped, one row per service', () => {
    const html = String(statusHtml(STATUS))
    assert.match(html, /<div id="manutencao" class="aviso aviso-manutencao"><p><strong id="manutencao-texto">Manutenção em andamento: Troca &lt;b&gt;de&lt;\/b&gt; \| banco\./)
    assert.equal((html.match(/<tr data-servico=/g) ?? []).length, 3)
    assert.match(html, /<time id="verificado-em" datetime="2026-12-01T05:30:00.000Z">/)
    assert.match(String(statusHtml({ ...STATUS, manutencao: null })), /<div id="manutencao" class="aviso aviso-manutencao" hidden>/)
  })

  it('an upcoming window reads as planned; no window, no banner', () => {
    assert.match(maintenanceText({ ...STATUS.manutencao!, em_curso: false })!, /^Manutenção programada de 01\/12\/2026, 02:00:00 a 01\/12\/2026, 04:00:00 \(horário de Brasília\): Troca/)
    assert.match(maintenanceText({ inicio: null, fim: null, mensagem: null, em_curso: true })!, /Sem previsão de término/)
    assert.equal(maintenanceText(null), null)
  })
})

describe('contact form component', () => {
  it('labels, input types, the contract limits and the subjects of the API', () => {
    const html = String(formHtml(DEFAULT_SUBJECTS))
    for (const f of ['nome', 'email', 'assunto', 'empresa', 'telefone', 'site', 'mensagem']) {
      assert.match(html, new RegExp(`<label for="campo-${f}">`), f)
      assert.match(html, new RegExp(`id="campo-${f}" name="${f}" aria-describedby="dica-${f} erro-${f}"`), f)
    }
    assert.match(html, /id="campo-nome"[^>]* required minlength="2" maxlength="120" type="text" autocomplete="name"/)
    assert.match(html, /id="campo-email"[^>]* required type="email" autocomplete="email"/)
    assert.match(html, /id="campo-empresa"[^>]* maxlength="140" type="text"/)
    assert.match(html, /id="campo-telefone"[^>]* maxlength="40" type="tel"/)
    assert.match(html, /id="campo-site"[^>]* maxlength="200" type="url"/)
    assert.match(html, /<textarea id="campo-mensagem"[^>]* required minlength="10" maxlength="4000"/)
    assert.equal((html.match(/<option /g) ?? []).length, DEFAULT_SUBJECTS.length)
    assert.match(html, /<option value="comercial" selected>/)
    assert.match(html, /<form id="form-contato" class="formulario" method="post" action="\/contato" data-api="\/api\/site\/contato">/)
  })

  it('messages in Portuguese from the 422 type and ctx', () => {
    assert.equal(fieldMessage({ type: 'missing', loc: ['body', 'nome'] }), 'Preencha este campo.')
    assert.equal(fieldMessage({ type: 'string_too_long', loc: ['body', 'nome'], ctx: { max_length: 120 } }), 'Use no máximo 120 caracteres.')
    assert.equal(tooManyRequests(30), 'Muitas mensagens enviadas em pouco tempo. Tente de novo em 30 segundos.')
    assert.equal(tooManyRequests(1), 'Muitas mensagens enviadas em pouco tempo. Tente de novo em 1 segundo.')
    assert.match(tooManyRequests(null), /Aguarde alguns minutos/)
  })

  it('reads URL-encoded forms and JSON objects; refuses other bodies', () => {
    const f = formInput(new NonJsonBody('application/x-www-form-urlencoded; charset=UTF-8', 'nome=Ana+Lu&email=&mensagem=a%0D%0Ab&extra=1&nome=Outra'))
    assert.deepEqual(f?.input, { nome: 'Ana Lu', mensagem: 'a\nb' })
    assert.deepEqual(f?.values, { nome: 'Ana Lu', email: '', mensagem: 'a\nb' })
    assert.deepEqual(formInput({ nome: 'x', n: 1 })?.input, { nome: 'x', n: 1 })
    assert.deepEqual(formInput(undefined)?.input, {})
    assert.equal(formInput(new NonJsonBody('text/plain', 'oi')), null)
    assert.equal(formInput([1]), null)
  })
})

describe('API reference from an OpenAPI document', () => {
  const doc = {
    openapi: '3.1.0',
    info: { title: 'T', version: '9.9.9' },
    servers: [{ url: '/api' }],
    tags: [{ name: 'a', description: 'Grupo A' }],
    paths: {
      '/x': {
        get: {
          tags: ['a'], summary: 'Lê X', description: 'Devolve `X`.',
          responses: { 200: { description: 'Default Response', content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } },
        },
        post: {
          summary: 'Sem tag',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', properties: { v: { type: 'integer', minimum: 1 } }, required: ['v'] } } },
          },
          responses: { 204: { description: 'Nada' } },
        },
      },
    },
    components: {
      schemas: {
        X: {
          type: 'object',
          properties: { s: { type: 'string', maxLength: 3, description: 'Um | dois' }, n: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
          required: ['s'],
        },
      },
    },
  }

  it('lists every operation under the server prefix, grouped by tag, and every schema', () => {
    assert.deepEqual(endpointsOf(doc).map((e) => `${e.method} ${e.path}`), ['GET /api/x', 'POST /api/x'])
    const md = referenceMarkdown(doc)
    assert.match(md, /#### GET \/api\/x\n/)
    assert.match(md, /#### POST \/api\/x\n/)
    assert.match(md, /### Grupo `a`\n\nGrupo A\./)
    assert.match(md, /### Grupo `outros`/)
    assert.match(md, /Devolve `X`\./)
    assert.match(md, /- \*\*200\*\* OK\. `application\/json`: \[X\]\(#esquema-x\)\./)
    assert.match(md, /\| `v` \| integer \| sim \| mínimo 1 \| — \|/)
    assert.match(md, /#### Esquema X\n/)
    assert.match(md, /\| `s` \| string \| sim \| máximo 3 caracteres \| Um \\\| dois \|/)
    assert.match(md, /\| `n` \| number ou null \| não \|/)
  })

  it('describes types in words', () => {
    assert.equal(typeWords({ type: 'array', items: { $ref: '#/components/schemas/Y' } }), 'lista de [Y](#esquema-y)')
    assert.equal(typeWords({ type: 'string', format: 'date-time' }), 'string (date-time)')
    assert.equal(typeWords({}), 'qualquer valor')
  })
})

// Generated HTTP/1.1 requests, as bytes: every public endpoint and site page, with hostile methods, paths,
// headers, framings and bodies. Bytes, not fetch: most of what is generated here fetch would refuse to send.
import fc from 'fast-check'

export type FuzzRequest = {
  method: string
  target: string
  headers: [string, string][]
  body: Buffer
  /** How the body is framed: a right Content-Length, chunked, none, or a Content-Length longer than what is sent. */
  framing: 'length' | 'chunked' | 'none' | 'short' | 'both'
  keepAlive: boolean
  /** Generated to pass Node's parser (plausible, contact) or to break the wire protocol (hostile). */
  kind: 'plausible' | 'hostile' | 'contact'
}

export const API_PATHS = ['/api/health', '/api/health/ready', '/api/version', '/api/status', '/api/site/contato',
  '/api/site/contato/assuntos', '/api/site/contato/estado']
const GATED = ['/api', '/api/', '/api/operacoes', '/api/mcp', '/api/metrics', '/api/site', '/api/health/ready/x', '/api/painel']
const SITE = ['/', '/contato', '/status', '/docs', '/privacidade', '/llms.txt', '/robots.txt', '/sitemap.xml', '/openapi.json',
  '/favicon.ico', '/nao-existe', '/assets/nao-existe.css']

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'G\u00e9T']

/** Text with the characters that break things: NUL, controls, quotes, unicode beyond the BMP, lone surrogates. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', '\u0000abc', '\ud800', '\udfff\ud800', '💸'.repeat(10), '<script>alert(1)</script>', "'; drop table contatos; --",
    '../../etc/passwd', '%00', '\r\n', '\u202e', 'ção', '__proto__', 'constructor', '{{x}}', '${x}'),
)

function percentEncodeOne(path: string, at: number): string {
  if (path.length === 0) return path
  const i = at % path.length
  if (path[i] === '/') return path
  return path.slice(0, i) + '%' + path.charCodeAt(i).toString(16).toUpperCase().padStart(2, '0') + path.slice(i + 1)
}

const MUTATIONS: fc.Arbitrary<(p: string) => string>[] = [
  fc.constant((p: string) => p + '/'),
  fc.constant((p: string) => p.replace(/\//g, '//')),
  fc.constant((p: string) => '/' + p),
  fc.constant((p: string) => p.replace(/\/([^/]*)$/, '/./$1')),
  fc.constant((p: string) => p.replace(/\/([^/]*)$/, '/x/../$1')),
  fc.constant((p: string) => p + '/..'),
  fc.constant((p: string) => p.toUpperCase()),
  fc.constant((p: string) => p.replace(/\//g, '%2F')),
  fc.nat().map((n) => (p: string) => percentEncodeOne(p, n)),
  fc.constantFrom('%zz', '%', '%0', '%00', '%C0%AF', '%ED%A0%80', '%FF', '%E2%82', '%25', 'ção', '💸', '\u0000', '%u0041', ';a=b', '#frag')
    .map((s) => (p: string) => p + s),
  fc.integer({ min: 100, max: 20_000 }).map((n) => (p: string) => p + '/' + 'a'.repeat(n)),
  fc.integer({ min: 1, max: 400 }).map((n) => (p: string) => p + '/..'.repeat(n)),
  fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 4 })
    .map((q) => (p: string) => `${p}?${Object.entries(q).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}`).join('&')}`),
  fc.string({ maxLength: 30 }).map((q) => (p: string) => `${p}?${q}`),
]

const path = fc.tuple(
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...API_PATHS) },
    { weight: 1, arbitrary: fc.constantFrom(...GATED) },
    { weight: 4, arbitrary: fc.constantFrom(...SITE) },
  ),
  fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(fc.oneof(...MUTATIONS), { minLength: 1, maxLength: 3 }) }),
).map(([base, mutations]) => mutations.reduce((p, m) => m(p), base))

/** Extra paths: the site's real asset names, known only once the server runs. */
export function requests(assets: string[]): fc.Arbitrary<FuzzRequest> {
  const target = fc.oneof({ weight: 9, arbitrary: path }, { weight: 1, arbitrary: fc.constantFrom(...assets) },
    { weight: 1, arbitrary: fc.constantFrom('*', 'http://127.0.0.1/api/health', '//api/health', 'api/health', '/api/health HTTP/1.1') })
  // Most requests get past Node's parser, so that the routes are exercised; the rest are hostile at the wire.
  const plausible = fc.record({
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
    target: fc.oneof({ weight: 9, arbitrary: path }, { weight: 1, arbitrary: fc.constantFrom(...assets) }),
    headers: saneHeaders(),
    body: body(),
    framing: fc.constantFrom<FuzzRequest['framing']>('length', 'length', 'length', 'chunked'),
    keepAlive: fc.boolean(),
    kind: fc.constant('plausible' as const),
  })
  const hostile = fc.record({
    method: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) }),
    target,
    headers: headers(),
    body: body(),
    framing: fc.constantFrom<FuzzRequest['framing']>('length', 'length', 'length', 'chunked', 'none', 'short', 'both'),
    keepAlive: fc.boolean(),
    kind: fc.constant('hostile' as const),
  })
  // Valid contacts, so that acceptance (202) is fuzzed too, by the API and by the site's form.
  const contact = fc.record({
    nome: fc.string({ minLength: 2, maxLength: 120 }).filter((v) => v.trim().length >= 2),
    mensagem: fc.string({ minLength: 10, maxLength: 400 }).filter((v) => v.trim().length >= 10),
    assunto: fc.constantFrom('comercial', 'geral', 'nao-existe', 'suporte'),
    empresa: fc.string({ maxLength: 140 }),
    form: fc.boolean(),
  }).map(({ form, ...fields }): FuzzRequest => {
    const values = { ...fields, email: 'maria@empresa.com.br' }
    return form
      ? { method: 'POST', target: '/contato', headers: [['Host', '127.0.0.1'], ['Content-Type', 'application/x-www-form-urlencoded']],
        body: Buffer.from(new URLSearchParams(values).toString()), framing: 'length', keepAlive: false, kind: 'contact' }
      : { method: 'POST', target: '/api/site/contato', headers: [['Host', '127.0.0.1'], ['Content-Type', 'application/json']],
        body: Buffer.from(JSON.stringify(values)), framing: 'length', keepAlive: false, kind: 'contact' }
  })
  return fc.oneof({ weight: 6, arbitrary: plausible }, { weight: 3, arbitrary: hostile }, { weight: 1, arbitrary: contact })
}

/** Headers Node accepts: printable values, token names, a Host. */
function saneHeaders(): fc.Arbitrary<[string, string][]> {
  const printable = fc.string({ maxLength: 40 }).map((v) => v.trim())
  return fc.record({
    accept: fc.option(fc.oneof(fc.constantFrom('text/html', 'text/markdown', '*/*', 'application/json', 'text/markdown;q=0.9, text/html;q=0.1',
      'image/png', 'text/*;q=0', 'text/html;q=abc'), printable)),
    contentType: fc.option(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
      'application/merge-patch+json', 'application/json/x', 'json', 'multipart/form-data; boundary=x'), { freq: 2 }),
    extra: fc.array(fc.tuple(fc.constantFrom('x-request-id', 'x-forwarded-for', 'origin', 'accept-encoding', 'if-none-match', 'authorization',
      'access-control-request-method', 'x-custom'), fc.oneof(printable, fc.constantFrom('gzip, br', 'br;q=0', '*', 'null', 'http://evil.example')))),
  }).map(({ accept, contentType, extra }) => [['Host', '127.0.0.1'], ...(accept ? [['Accept', accept]] : []),
    ...(contentType ? [['Content-Type', contentType]] : []), ...extra] as [string, string][])
}

const accept = fc.oneof(
  fc.constantFrom('text/html', 'text/markdown', '*/*', 'application/json', 'text/markdown;q=0.9, text/html;q=0.1', 'image/png',
    'text/*;q=0', 'text/html;q=abc', ';;;', ',', 'text/markdown; charset=utf-8', '*/*;q=0', 'application/json, text/html;q=0.5'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 1, max: 4000 }).map((n) => 'text/html;q=0.1, '.repeat(n)),
)
const contentType = fc.oneof(
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', '',
    'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/merge-patch+json', 'application/json/x',
    '*/*', 'json', 'application/ json', 'APPLICATION/JSON', 'text/html; charset=', 'application/x-www-form-urlencoded; charset=utf-8'),
  fc.string({ maxLength: 40 }),
)
const headerValue = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 50 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 40_000 }).map((n) => 'v'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\rb', 'a\nb', '\u007f', '\u00ff\u00fe', ' leading', 'trailing ', '\t') },
)
const headerName = fc.oneof(
  fc.constantFrom('x-request-id', 'x-forwarded-for', 'origin', 'authorization', 'cookie', 'accept-encoding', 'if-none-match', 'range',
    'access-control-request-method', 'access-control-request-headers', 'expect', 'upgrade', 'connection', 'te', 'trailer', 'referer'),
  fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/),
  fc.constantFrom('bad header', 'x:y', '', 'ção', 'x\u0000'),
)

function headers(): fc.Arbitrary<[string, string][]> {
  return fc.record({
    host: fc.oneof({ weight: 8, arbitrary: fc.constant([['Host', '127.0.0.1']] as [string, string][]) },
      { weight: 1, arbitrary: fc.constant([] as [string, string][]) },
      { weight: 1, arbitrary: fc.array(headerValue, { minLength: 1, maxLength: 2 }).map((vs) => vs.map((v): [string, string] => ['Host', v])) }),
    accept: fc.option(accept.map((v): [string, string] => ['Accept', v])),
    contentType: fc.option(contentType.map((v): [string, string] => ['Content-Type', v]), { freq: 3 }),
    extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
    duplicated: fc.option(fc.tuple(fc.constantFrom('Content-Type', 'Accept', 'X-Request-ID', 'Content-Length', 'Transfer-Encoding', 'Host'), headerValue)),
    framing: fc.option(fc.constantFrom<[string, string]>(['Content-Length', '-1'], ['Content-Length', '1e3'], ['Content-Length', '99999999999999999999'],
      ['Content-Length', ' 5'], ['Transfer-Encoding', 'gzip'], ['Transfer-Encoding', 'chunked, chunked'], ['Transfer-Encoding', 'identity'],
      ['Content-Length', '0'], ['Expect', '100-continue'], ['Content-Encoding', 'gzip']), { freq: 8 }),
  }).map(({ host, accept, contentType, extra, duplicated, framing }) => [
    ...host,
    ...(accept ? [accept] : []),
    ...(contentType ? [contentType] : []),
    ...extra,
    ...(duplicated ? [duplicated, duplicated] : []),
    ...(framing ? [framing] : []),
  ])
}

/** JSON nested `depth` levels of arrays or objects, as text (fast-check's own JSON stays shallow). */
const deepJson = fc.tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth))

const contactLike = fc.record({
  nome: fc.oneof(fc.constant('Maria da Silva'), nasty, fc.integer(), fc.constant(null)),
  email: fc.oneof(fc.constant('maria@empresa.com.br'), fc.emailAddress(), nasty, fc.constant(['a@b.co'])),
  assunto: fc.oneof(fc.constantFrom('comercial', 'geral', 'suporte', 'nao-existe'), nasty),
  mensagem: fc.oneof(fc.constant('Quero saber mais sobre antecipação de recebíveis.'), nasty, fc.string({ minLength: 3990, maxLength: 4010 })),
  empresa: nasty,
  telefone: nasty,
  site: nasty,
}, { requiredKeys: [] })

const poisoned = fc.constantFrom(
  '{"__proto__":{"admin":true},"nome":"Maria","email":"m@e.com.br","mensagem":"0123456789 abc"}',
  '{"constructor":{"prototype":{"admin":true}},"nome":"Maria","email":"m@e.com.br","mensagem":"0123456789 abc"}',
  '{"nome":{"__proto__":{"toString":1}},"email":"m@e.com.br","mensagem":{"constructor":{"prototype":null}}}',
  '[{"__proto__":[]}]', '{"__proto__":null}', '{"hasOwnProperty":1,"toString":2,"valueOf":3,"nome":"ab","email":"a@b.co","mensagem":"0123456789"}',
)

function body(): fc.Arbitrary<Buffer> {
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 5, arbitrary: contactLike.map((o) => JSON.stringify(o)) },
    { weight: 3, arbitrary: fc.json({ maxDepth: 6 }) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: poisoned },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: contactLike.map((o) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString()) },
    { weight: 1, arbitrary: fc.integer({ min: 60 * 1024, max: 200 * 1024 }).map((n) => JSON.stringify({ nome: 'Maria', mensagem: 'x'.repeat(n) })) },
  ).map((s) => Buffer.from(s))
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
    fc.constantFrom(Buffer.from([0xc3, 0x28]), Buffer.from('{"nome":"\xff\xfe","email":"a@b.co"}', 'latin1'), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      Buffer.from('{"nome":"a\u0000b","email":"a@b.co","mensagem":"\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"}'),
      Buffer.from([0xed, 0xa0, 0x80])),
  )
  return fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: bytes })
}

export function serialize(req: FuzzRequest): Buffer {
  const lines = [`${req.method} ${req.target} HTTP/1.1`, ...req.headers.map(([k, v]) => `${k}: ${v}`)]
  let payload = req.body
  switch (req.framing) {
    case 'length': lines.push(`Content-Length: ${req.body.length}`); break
    case 'short': lines.push(`Content-Length: ${req.body.length + 10}`); break
    case 'both': lines.push(`Content-Length: ${req.body.length}`, 'Transfer-Encoding: chunked'); break
    case 'chunked':
      lines.push('Transfer-Encoding: chunked')
      payload = Buffer.concat([req.body.length ? Buffer.from(`${req.body.length.toString(16)}\r\n`) : Buffer.alloc(0), req.body,
        Buffer.from(req.body.length ? '\r\n0\r\n\r\n' : '0\r\n\r\n')])
      break
    case 'none': break
  }
  if (!req.keepAlive) lines.push('Connection: close')
  // Header text as UTF-8 bytes (what a client would put on the wire for non-ASCII), the body as given.
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n'), payload])
}

// Fuzzing the /conta forms (part of `npm run test:fuzz`, issue 20): the token form, revocation, ending a session
// and the login, with control characters (ESC/OSC sequences, C1, line breaks, tabs, bidi controls), NFD/NFC pairs,
// emoji at and past the length limit, and huge or odd numbers in every field. Never a 5xx, never a line logged at
// error level, never a stored token name the rule refuses; the login finds the person whatever the e-mail's
// normalization form. The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { nameProblem } from '../../src/platform/lib/chosen-name.ts'
import { TOKEN_NAME_MAX } from '../../src/modules/credentials/tokens/store.ts'
import { accountPage, csrfOf, login, PASSWORD, personWithPassword, postForm } from '../helpers/account-web.ts'
import { useTestApp } from '../helpers/fixture.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20_2026)
const RUNS = Number(process.env.FUZZ_ACCOUNT_RUNS ?? 150)
console.log(`fuzz (account forms): seed ${SEED}, ${RUNS} posts (replay with FUZZ_SEED=${SEED})`)

const HOSTILE = ['\x1b[31m', '\x1b]52;c;ZWNobw==\x07', '\x1b]0;título\x07', '\u009b2J', '\n', '\r', '\t', '\u0000', '\u007f', '\u202e', '\u2066',
  '\u2069', '\u200f', '\u2028', '\ufeff', '\u200b', 'e\u0301', '\u00e9', '😀', '👩‍👩‍👧', '🧾', '<script>', '"', '&amp;']
const NUMBERS = ['1e300', '-1e300', '9'.repeat(400), 'NaN', 'Infinity', '-0', '0x1F', '30.0000000001', '366', '367', '', ' 30', '３０']

const piece = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }))
const text = (maxPieces: number) => fc.array(piece, { maxLength: maxPieces }).map((p) => p.join(''))
const around = fc.oneof(text(12), fc.constantFrom('🧾'.repeat(TOKEN_NAME_MAX), '😀'.repeat(TOKEN_NAME_MAX + 1), '😀'.repeat(60), 'x'.repeat(5000)))
const numberish = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer().map(String), fc.double().map(String), text(3))

type Post = { path: string, fields: Record<string, string | string[]> }

const post: fc.Arbitrary<Post> = fc.oneof(
  fc.record({
    // Mostly valid but for the name, so that names reach the store.
    nome: around,
    escopos: fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>(['conta']) }, fc.array(fc.oneof(fc.constantFrom('conta', 'tokens', 'mcp'), text(2)), { maxLength: 4 })),
    validade_dias: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('7', '30', '366') }, numberish),
    dpop_jkt: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, text(6), numberish),
  }).map((f) => ({ path: '/conta/tokens', fields: f })),
  fc.record({ token_id: fc.oneof(fc.uuid(), text(4), numberish) }).map((f) => ({ path: '/conta/tokens/revogar', fields: f })),
  fc.record({ sessao_id: fc.oneof(fc.uuid(), text(4), numberish) }).map((f) => ({ path: '/conta/sessoes/encerrar', fields: f })),
)

describe('fuzz: hostile /conta forms', () => {
  const logs: Array<{ level?: number, msg?: string }> = []
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, logs, logLevel: 'warn' })

  it(`${RUNS} posts of the account's forms: no 5xx, nothing logged at error level, no stored name the rule refuses`, async () => {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.120')
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const seen = new Map<string, number>()
    await fc.assert(fc.asyncProperty(post, fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)), async (r, withCsrf) => {
      const res = await postForm(ctx.app, r.path, { ...r.fields, ...(withCsrf ? { csrf } : {}) }, { cookie })
      seen.set(`${r.path} ${res.statusCode}`, (seen.get(`${r.path} ${res.statusCode}`) ?? 0) + 1)
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${JSON.stringify(r)}`)
      assert.notEqual(res.headers.location, '/conta/entrar?aviso=sessao-expirada', 'the session survived')
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (account forms): ${JSON.stringify(Object.fromEntries(seen))}`)
    assert.deepEqual(logs.filter((l) => (l.level ?? 0) >= 50), [])
    const names = await ctx.db.ownerTransaction((tx) => tx.query<{ nome: string }>('SELECT nome FROM tokens WHERE cliente_id = $1', [p.clienteId]))
    for (const { nome } of names) assert.equal(nameProblem(nome, TOKEN_NAME_MAX), undefined, JSON.stringify(nome))
    assert.ok(names.length > 0 && [...seen.keys()].some((k) => k === '/conta/tokens 422'), 'the run made tokens and was refused some')
  })

  it(`${Math.ceil(RUNS / 5)} logins with NFD/NFC spellings, control characters and huge values: never a 5xx; the person always found`, async () => {
    const nfd = 'jose\u0301.fuzz@cliente.com.br'
    await personWithPassword(ctx.db, PASSWORD, nfd)
    let address = 0
    const spelling = fc.constantFrom(nfd, nfd.normalize('NFC'), nfd.toUpperCase(), ` ${nfd.normalize('NFC')}\t`)
    await fc.assert(fc.asyncProperty(fc.oneof(spelling, text(6), numberish), fc.oneof(fc.constant(PASSWORD), text(4), numberish), async (email, senha) => {
      // One address per attempt: the budgets are not what is fuzzed here.
      address++
      const res = await postForm(ctx.app, '/conta/entrar', { email, senha }, { remoteAddress: `10.20.${address >> 8}.${address & 255}` })
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${JSON.stringify({ email, senha })}`)
      const known = email.trim().toLowerCase().normalize('NFC') === nfd.normalize('NFC')
      if (known && senha === PASSWORD) assert.equal(res.statusCode, 303, `logged in as ${JSON.stringify(email)}`)
      else assert.equal(res.statusCode, 422, JSON.stringify({ email, senha }))
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 5) })
    assert.deepEqual(logs.filter((l) => (l.level ?? 0) >= 50), [])
  })
})

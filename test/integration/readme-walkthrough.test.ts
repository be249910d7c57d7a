// The README's "An operation end to end", run as a reader runs it: its `sh` block, read from README.md itself, run
// by bash in the repository (the CLI through `npm run`, the API through curl) against the built service as a real
// process, on a free port, with the embedded database in a temporary DATA_DIR or, in the PostgreSQL suite, a
// database of its own. One line is changed, the address (`API=`), to the test's port; the README's commands are
// not. What the reader has before the block comes from the README too: $CLIENTE from its customer-creation line,
// and $APROVADOR as the paragraph above the block says: the operator invites a second person with the CLI command
// quoted there, who activates from the printed link and makes a token with the scope `aprovacao` on /conta
// ("Tokens"); those pages are posted over HTTP as a browser without JavaScript posts them (the forms need none).
//
// The block's own `call` does not fail on an HTTP error (curl -s prints the problem body and goes on), so each step
// is checked where a reader would look: the JSON it prints, against what the block's comments promise, and the
// service's access log, one line per request with its status.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it, type TestContext } from 'node:test'
import { tokenThroughAccountPage } from '../helpers/account-over-http.ts'
import { createTestDatabase, usingPostgres } from '../helpers/database.ts'
import { defer } from '../helpers/fixture.ts'
import { spawnService, waitForOutput } from '../helpers/service-process.ts'
import { freePort } from '../helpers/smtp.ts'
import { tempDir } from '../helpers/temp.ts'

// The checkout, where `npm test` runs (as spawnService's `dist/main.js` assumes): the reader's directory.
const ROOT = process.cwd()
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const HEADING = '### An operation end to end'
const README_API = 'API=http://127.0.0.1:3000'

/** The section under `HEADING`: its prose before the block, and the block's text. */
function walkThrough(): { prose: string, block: string } {
  const start = README.indexOf(`\n${HEADING}\n`)
  assert.ok(start >= 0, `README.md has no "${HEADING}"`)
  const rest = README.slice(start + HEADING.length + 2)
  const m = /^```sh\n([\s\S]*?)^```$/m.exec(rest)
  assert.ok(m, `no sh block after "${HEADING}"`)
  const prose = rest.slice(0, m.index)
  assert.doesNotMatch(prose, /^#+ /m, `the first sh block after "${HEADING}" is in another section`)
  return { prose, block: m[1]! }
}

/** A README line the reader ran before (the one that makes $CLIENTE): exactly one line starts with `prefix`. */
function readmeLine(prefix: string): string {
  const lines = README.split('\n').filter((l) => l.startsWith(prefix))
  assert.equal(lines.length, 1, `README.md should have one line starting with ${prefix}: ${JSON.stringify(lines)}`)
  return lines[0]!
}

/** The values of text made of JSON values written one after another (curl -s adds no newline). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i
    } else if (c === '}' || c === ']') {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)))
    } else if (depth === 0 && c!.trim()) {
      throw new Error(`not JSON at ${i}: ${text.slice(i, i + 200)}`)
    }
  }
  return values
}

type Ran = { code: number | string, stdout: string, stderr: string }

/** `bash -c script` in the repository, its own process group, killed when `ms` pass or the test ends. */
function bash(t: TestContext, script: string, env: NodeJS.ProcessEnv, ms: number): Promise<Ran> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => { stdout += d })
  child.stderr.on('data', (d) => { stderr += d })
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // the group has exited already
    }
  }
  const timer = setTimeout(kill, ms)
  const done = new Promise<Ran>((resolve) => child.once('close', (code, signal) => {
    clearTimeout(timer)
    resolve({ code: code ?? signal ?? 'unknown', stdout, stderr })
  }))
  defer(t, async () => {
    kill()
    await done
  })
  return done
}

const STRICT = 'set -euo pipefail\n'

// What the block prints, as far as the test reads it.
type Priced = { versao?: number, linhas: unknown[], totais: { valor_liquido_centavos: number }, prazo_medio_dias: string }
type WithState = { estado: string, valor_centavos?: number }
type Extrato = { movimentos: { credito_centavos: number, debito_centavos: number }[], saldo_final_centavos: number }
type Sides = { debitos_centavos: number, creditos_centavos: number, saldo_devedor_centavos: number, saldo_credor_centavos: number }
type Balancete = { contas: Sides[], totais: Sides }

// Each request the block makes, in its order, with the status the API answers when the step works.
const REQUESTS = [
  'POST /api/simulacoes 200', 'POST /api/produtos 201', 'POST /api/cedentes 201', 'POST /api/sacados 201', 'POST /api/operacoes 201',
  'POST /api/operacoes/:id/cotacao 201', 'POST /api/operacoes/:id/aceite 200', 'POST /api/operacoes/:id/formalizacao 200',
  'POST /api/operacoes/:id/desembolso 201', 'POST /api/desembolsos/:id/aprovacao 200', 'POST /api/desembolsos/:id/pagamento 200',
  'GET /api/cedentes/:id/extrato 200', 'GET /api/contabil/balancete 200',
]

describe("the README's operation end to end", () => {
  it('runs as written: the example priced, an operation taken to payment by two people, the ledger balanced', { timeout: 120_000 }, async (t) => {
    const { prose, block } = walkThrough()
    assert.ok(block.split('\n').includes(README_API), `the block no longer sets ${README_API}: the test knows only that address to replace`)
    const invite = /`(npm run -s cli -- usuarios convidar[^`]*)`/.exec(prose)?.[1]?.replace(/\s+/g, ' ')
    assert.ok(invite, `the prose above the block no longer quotes the invitation command:\n${prose}`)

    const dataDir = tempDir('readme')
    const tdb = usingPostgres ? await createTestDatabase() : undefined
    if (tdb) defer(t, () => tdb.dispose())
    const port = String(await freePort())
    const origin = `http://127.0.0.1:${port}`
    // The service and the CLI read the same settings, as in one checkout: the CLI reaches the embedded database
    // through the running service's socket in DATA_DIR, and builds the invitation's link from PUBLIC_URL.
    const settings = { PORT: port, PUBLIC_URL: origin, DATA_DIR: dataDir, ...(tdb ? { DATABASE_URL: tdb.url! } : {}) }
    const service = await spawnService(t, settings)
    await waitForOutput(service, /"msg":"service ready"/)
    const env: NodeJS.ProcessEnv = { ...process.env, ...settings }
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'MIGRATION_DATABASE_URL', 'SMTP_URL'] as const) {
      if (!(name in settings)) delete env[name]
    }

    const before = await bash(t, `${STRICT}${readmeLine('CLIENTE=$(')}\nprintf 'CLIENTE=%s\\n' "$CLIENTE"\n${invite}\n`, env, 60_000)
    assert.equal(before.code, 0, `the customer or the invitation failed:\n${before.stdout}\n${before.stderr}`)
    const cliente = /^CLIENTE=([0-9a-f-]{36})$/m.exec(before.stdout)?.[1]
    assert.ok(cliente, before.stdout)
    const link = new RegExp(`${origin.replace(/\./g, '\\.')}/conta/ativar\\?convite=\\S+`).exec(before.stdout)?.[0]
    assert.ok(link, `no invitation link on ${origin} printed:\n${before.stdout}`)
    const aprovador = await tokenThroughAccountPage(origin, link, 'jabuticaba azul no telhado', { nome: 'Aprovação', escopos: ['aprovacao'] })

    const logFrom = service.output().length
    const run = await bash(t, STRICT + block.replace(README_API, `API=${origin}`), { ...env, CLIENTE: cliente, APROVADOR: aprovador }, 90_000)
    assert.equal(run.code, 0, `the block failed:\n${run.stdout}\n${run.stderr}`)
    await waitForOutput(service, /"route":"\/api\/contabil\/balancete"/)
    const requests = service.output().slice(logFrom).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request' && l.route.startsWith('/api/')).map((l) => `${l.method} ${l.route} ${l.status}`)
    const printed = jsonValues(run.stdout) as Record<string, unknown>[]
    // A step refused prints its problem body, and the steps after it usually fail too: those bodies say why.
    const problems = printed.filter((v) => 'detail' in v)
    assert.deepEqual(requests, REQUESTS, `the problems printed: ${JSON.stringify(problems)}`)
    assert.equal(printed.length, 8, run.stdout)
    const [simulacao, cotacao, aceite, formalizacao, aprovacao, pagamento, extrato, balancete] =
      printed as [Priced, Priced, WithState, WithState, WithState, WithState, Extrato, Balancete]
    // "The example on its own date: valor_liquido_centavos 4637053, prazo_medio_dias "50.50"."
    assert.equal(simulacao.totais.valor_liquido_centavos, 4637053)
    assert.equal(simulacao.prazo_medio_dias, '50.50')
    // "lines and totals, versao 1"
    assert.equal(cotacao.versao, 1)
    assert.equal(cotacao.linhas.length, 1)
    const liquido = cotacao.totais.valor_liquido_centavos
    assert.ok(Number.isInteger(liquido) && liquido > 0, JSON.stringify(cotacao.totais))
    assert.equal(aceite.estado, 'aceita')
    assert.equal(formalizacao.estado, 'formalizada')
    assert.deepEqual([aprovacao.estado, aprovacao.valor_centavos], ['aprovado', liquido], JSON.stringify(aprovacao))
    assert.deepEqual([pagamento.estado, pagamento.valor_centavos], ['pago', liquido], JSON.stringify(pagamento))
    // "credit, then debit: balance 0"
    assert.deepEqual(extrato.movimentos.map((m) => [m.credito_centavos, m.debito_centavos]), [[liquido, 0], [0, liquido]])
    assert.equal(extrato.saldo_final_centavos, 0)
    // The trial balance balances: debits equal credits, in total and added up account by account.
    const { contas, totais } = balancete
    const sum = (side: keyof Sides) => contas.reduce((s, c) => s + c[side], 0)
    assert.equal(totais.debitos_centavos, totais.creditos_centavos)
    assert.equal(totais.saldo_devedor_centavos, totais.saldo_credor_centavos)
    assert.deepEqual([sum('debitos_centavos'), sum('creditos_centavos')], [totais.debitos_centavos, totais.creditos_centavos])
    assert.ok(totais.debitos_centavos > 0, 'the ledger has the operation')
  })
})

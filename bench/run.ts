// `npm run bench [-- --quick]`: the built service as production runs it, against baselines measured in the
// same run on the same CPU, driven by wrk in its own process on the other CPU; a table of medians, and the
// same as JSON under bench/results/. Absolute numbers move with the machine; the ratios are the result.
//
// A ratio is the median of paired rounds: each round measures the service and its baselines back to back, in an
// order that alternates from round to round, and divides the two. These virtual machines lose or regain half their
// speed for seconds at a time; a ratio of two medians taken minutes apart measured that weather (one run gave the
// subjects route 0.25 and 0.43 from the same samples), while many short pairs cancel it.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { capture, type Captured } from './lib/capture.ts'
import { cpuMicros, freePort, rssMb, startServer, type Started } from './lib/processes.ts'
import { currentNonce, dpopKey, writeProofs } from './lib/dpop.ts'
import { apiCaller, draftOperations, holidayWindow, productData, writeQuoteScripts, type ProductData } from './lib/operations.ts'
import { seedLedger, writeLedgerScripts, type Ledger } from './lib/ledger.ts'
import { seedLists, writeListsScript, type Lists } from './lib/lists.ts'
import { settleOutbox } from './lib/settle.ts'
import { runRetorno, type RetornoResult } from './lib/retorno.ts'
import { runWebhooks, type WebhookResult } from './lib/webhooks.ts'
import { runTwoCustomers, type TwoCustomersResult } from './lib/two-customers.ts'
import { parsePgbench, pinned, runCaptured, wrk, type LoadResult } from './lib/wrk.ts'
import { SCENARIOS, type Baseline, type Scenario } from './scenarios.ts'

const USAGE = `usage: npm run bench [-- options]

Builds dist/ if stale, starts it as production runs it on a fresh database of the local PostgreSQL, and
measures it against a bare node:http server, a minimal Fastify app and pgbench in the same run (BENCHMARKS.md).

  --quick          one short round of each scenario: proves the harness works (CI); its numbers mean nothing
  --only=a,b       only the scenarios whose name contains one of these words (e.g. --only=health,status;
                   --only=customers: customer B's reads alone and while customer A floods, issue 31 item 9)
  --no-metrics     the service without METRICS_PORT, to measure the metrics listener's cost
  --otel           the service with OpenTelemetry tracing on (OTEL_EXPORTER_OTLP_ENDPOINT: a sink in this process
                   that discards the spans): compare its ratios with a run without it for what tracing costs
  --cpu-prof       the measured service under Node's --cpu-prof: its profile (.cpuprofile, for Chrome's
                   DevTools) is written to the results directory when it stops; the numbers are then slower
  --pgbench-prepared
                   pgbench with -M prepared (each statement planned once per connection, as the service's fixed
                   statements are) instead of -M extended (planned on every execution): the stricter baseline
  --help           this text

environment: DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test), BENCH_SECONDS (3),
BENCH_ROUNDS (9), BENCH_SOAK_SECONDS (60). Needs wrk and pgbench (Debian: wrk, postgresql-contrib).
Results: a table on stdout, and bench/results/<time>/results.json with the service's access log.`

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
const unknown = args.filter((a) => !['--quick', '--no-metrics', '--otel', '--cpu-prof', '--pgbench-prepared'].includes(a) && !a.startsWith('--only='))
if (unknown.length) {
  console.error(`bench: unknown option ${unknown.join(' ')}\n\n${USAGE}`)
  process.exit(2)
}
const quick = process.argv.includes('--quick')
// `--only health,status`: the scenarios whose name contains one of these words (for profiling one path).
const onlyArg = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)
const only = onlyArg ? onlyArg.split(',').map((w) => w.trim()).filter(Boolean) : []
const scenarios = only.length ? SCENARIOS.filter((s) => only.some((w) => s.name.includes(w))) : SCENARIOS
// `--no-metrics`: the service without METRICS_PORT, to measure what the metrics listener and its monitors cost.
const metricsOn = !process.argv.includes('--no-metrics')
// `--otel`: tracing on, every span exported (to a sink that answers at once, so the collector's speed is not measured).
const otelOn = process.argv.includes('--otel')
const cpuProf = process.argv.includes('--cpu-prof')
// `--pgbench-prepared`: pgbench plans each statement once per connection, as the service does with its fixed statements.
const pgbenchMode = process.argv.includes('--pgbench-prepared') ? 'prepared' : 'extended'
const SECONDS = quick ? 2 : Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = quick ? 1 : Number(process.env.BENCH_ROUNDS ?? 9)
const WARMUP_S = quick ? 1 : 3
const SOAK_S = quick ? 3 : Number(process.env.BENCH_SOAK_SECONDS ?? 60)
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const pin = has('taskset') && availableParallelism() >= 2
const SERVER_CPU = pin ? 0 : undefined
const LOAD_CPU = pin ? 1 : undefined
const here = new URL('./', import.meta.url).pathname
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
// The service runs with the image's V8 setting (Dockerfile's ENV NODE_OPTIONS; `npm start` passes it too).
const imageNodeOptions = readFileSync(join(here, '..', 'Dockerfile'), 'utf8').match(/^ENV NODE_OPTIONS="?([^"\n]+)"?$/m)?.[1] ?? ''

for (const tool of ['wrk', 'pgbench']) {
  if (!has(tool)) {
    console.error(`bench: ${tool} is missing (Debian: apt-get install ${tool === 'wrk' ? 'wrk' : 'postgresql-contrib'})`)
    process.exit(2)
  }
}
if (spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' }).status !== 0) process.exit(1)

const stamp = new Date().toISOString().replace(/[:.]/g, '-')
const outDir = join(here, 'results', stamp)
mkdirSync(outDir, { recursive: true })
const dataDir = mkdtempSync(join(tmpdir(), 'fps-bench-'))
const dbName = `fps_bench_${randomBytes(4).toString('hex')}`
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString()

async function admin(text: string, params: unknown[] = [], url = adminUrl) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { return (await client.query(text, params)).rows } finally { await client.end() }
}

/** Transactions committed in the bench database so far (what the service asked of PostgreSQL). */
async function transactions(): Promise<number> {
  const [row] = await admin('SELECT pg_stat_force_next_flush(), xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [dbName], dbUrl)
  return Number(row.n)
}

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.round((s.length - 1) * q)]! : NaN }
const median = (xs: number[]) => quantile(xs, 0.5)
/** The first and third quartiles of the paired ratios: how far the machine's weather moved them. */
const quartiles = (xs: number[]): [number, number] => [quantile(xs, 0.25), quantile(xs, 0.75)]

/** Transactions per second during one flood of /api/status, and during as long idle right after. */
async function countStatusQueries(flood: () => Promise<unknown>): Promise<{ flooded: number, idle: number }> {
  const before = await transactions()
  const started = performance.now()
  await flood()
  const flooded = (await transactions() - before) / ((performance.now() - started) / 1000)
  const idleStart = await transactions()
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))
  return { flooded, idle: (await transactions() - idleStart) / SECONDS }
}
const log = (s: string) => console.error(`bench: ${s}`)

/** An OTLP/HTTP endpoint that reads each export and answers 200 at once; closed when the bench exits. */
async function startOtlpSink(): Promise<{ url: string }> {
  const server = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }
}

async function main() {
  log(`${quick ? 'quick run (proves the harness, measures little); ' : ''}${ROUNDS} round(s) of ${SECONDS} s, warm-up ${WARMUP_S} s; ` +
    (pin ? `servers on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPU}` : 'no pinning (taskset or a second CPU missing)'))
  await admin(`CREATE DATABASE ${dbName}`)
  const servicePort = await freePort()
  // The metrics listener on, as the Kubernetes and compose configurations run it (prom-client's default
  // metrics and their event-loop monitor are part of what production pays).
  const metricsPort = await freePort()
  const otlpSink = otelOn ? await startOtlpSink() : undefined
  if (otlpSink) log(`tracing on: spans exported to ${otlpSink.url}`)
  // The load comes from one token: its per-credential budget would answer 429s instead of the route (as the per-IP
  // budgets are lifted by RATE_LIMIT_ALLOWLIST).
  const serviceConfig = join(outDir, 'service-config.json')
  writeFileSync(serviceConfig, JSON.stringify({ rateLimits: { credencial: { max: 100_000_000, windowSeconds: 60 } } }))
  const serviceEnv = {
    ...process.env, SERVICE_CONFIG_FILE: serviceConfig,
    NODE_OPTIONS: imageNodeOptions, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'json', DATABASE_URL: dbUrl, DATA_DIR: dataDir,
    PORT: String(servicePort), PUBLIC_URL: `http://127.0.0.1:${servicePort}`, METRICS_PORT: metricsOn ? String(metricsPort) : '', HOST: '127.0.0.1',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    REDIS_URL: process.env.BENCH_REDIS_URL ?? '', OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink?.url ?? '',
  }
  const serviceLog = join(outDir, 'service.log')
  const profiling = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${outDir}`] : []
  const startService = () => startServer(pinned(SERVER_CPU, [process.execPath, ...profiling, 'dist/main.js']), serviceEnv, servicePort, serviceLog)

  // Start-up to ready on an already migrated database: the first start migrates and is not counted.
  await (await startService()).stop()
  const readyTimes: number[] = []
  let service!: Started
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    if (service) await service.stop()
    const s = await startService()
    readyTimes.push(s.readyMs)
    service = s
  }
  log(`start-up to ready: ${readyTimes.map((t) => t.toFixed(0)).join(', ')} ms`)

  // A customer and its token, made as the operator makes them, for the credentialed scenarios.
  const cliEnv = { ...process.env, DATABASE_URL: dbUrl, DATA_DIR: dataDir }
  const cliJson = async (...args: string[]) =>
    JSON.parse(await runCaptured([process.execPath, 'dist/cli/main.js', ...args, '--json'], cliEnv, 'stdout')) as Record<string, string>
  const customer = await cliJson('clientes', 'criar', '--nome', 'Cliente do bench')
  const made = await cliJson('tokens', 'criar', '--cliente', customer.id!, '--nome', 'bench', '--escopos',
    'conta,cadastro,operacoes,financeiro,cobranca,webhooks', '--expira-em', '1d')
  const token = made.token!
  const key = await dpopKey()
  const boundToken = (await cliJson('tokens', 'criar', '--cliente', customer.id!, '--nome', 'bench-dpop', '--escopos', 'conta', '--expira-em', '1d',
    `--dpop-jkt=${key.thumbprint}`)).token!
  const authHeaders = (s: Scenario) =>
    s.credential === 'bearer' ? [`Authorization: Bearer ${token}`] : s.credential === 'dpop' ? [`Authorization: DPoP ${boundToken}`] : []
  // A proof is good once: before each run of a DPoP scenario, more fresh ones than the last run's rate could use.
  // Twice that rate, and never fewer than 5,000 a second: a warm-up's rate (the code not yet optimized) was once
  // below two thirds of the next run's, which then sent its last proof again and counted the replays as errors.
  const proofsFile = join(dataDir, 'dpop-proofs.txt')
  const lastRps = new Map<string, number>()
  const makeProofs = async (s: Scenario, seconds: number) => {
    const url = service.base + s.path
    const count = Math.ceil(Math.max(lastRps.get(s.name) ?? 10_000, 5_000) * seconds * 2) + 1000
    await writeProofs(proofsFile, key, url, boundToken, await currentNonce(key, url, boundToken), count)
  }
  // pgbench's own tables, for its built-in select-only script (`-S`), in the same database.
  await runCaptured(['pgbench', '-i', '-s', '1', '-q', dbUrl])

  // The product's data for the quote scenarios, made once they are asked for.
  const call = apiCaller(service.base, token)
  let product: ProductData | undefined
  const operationsOf = new Map<string, string>()
  let quoteScripts: string[] = []
  const prepareOperations = async (s: Scenario) => {
    if (!s.operations || operationsOf.has(s.name)) return
    product ??= await productData(call)
    const ids = await draftOperations(call, product, s.operations.count, s.operations.titles)
    operationsOf.set(s.name, ids.join(','))
    // pgbench's scripts of a quote's statements, with a real quote's calculation as the JSON it writes.
    const sample = await call('POST', `/api/operacoes/${ids[0]}/cotacao`)
    quoteScripts = writeQuoteScripts(outDir, { clienteId: customer.id!, tokenId: made.id!, data: product, holidays: holidayWindow() }, ids, sample)
  }
  /** One quote of 1,000 títulos, five times in a row on one operation: the median wall time, in ms. */
  const quoteOfThousand = async (): Promise<number> => {
    product ??= await productData(call)
    const [id] = await draftOperations(call, product, 1, 1000)
    const times: number[] = []
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      const started = performance.now()
      await call('POST', `/api/operacoes/${id}/cotacao`)
      times.push(performance.now() - started)
    }
    return median(times)
  }

  // The ledger scenarios' 100,000 entries, and pgbench's scripts of the same statements, made once they are asked for.
  let ledger: { data: Ledger, scripts: { extrato: string, lancamentos: string } } | undefined
  const prepareLedger = async (s: Scenario) => {
    if (!s.ledger || ledger) return
    log('seeding 100,000 ledger entries')
    const data = await seedLedger(dbUrl, customer.id!, quick ? 5_000 : 100_000, 100)
    ledger = { data, scripts: writeLedgerScripts(outDir, customer.id!, data) }
  }
  // The lists scenario's 10,000 operations, and pgbench's script of the SQL that computes its page, made once asked for.
  let lists: { data: Lists, script: string } | undefined
  const prepareLists = async (s: Scenario) => {
    if (!s.lists || lists) return
    log('seeding 10,000 operations')
    product ??= await productData(call)
    const data = await seedLists(dbUrl, customer.id!, product.produto, product.sacado, quick ? 1_000 : 10_000, 200)
    lists = { data, script: writeListsScript(outDir, customer.id!) }
  }
  const pathOf = (s: Scenario) => (!ledger ? s.path
    : s.path.replace('{cedente}', ledger.data.cedente).replace('{de}', ledger.data.de).replace('{ate}', ledger.data.ate))
    .replace('{lists}', lists?.data.path ?? '{lists}')

  const responses: Record<string, Captured> = {}
  for (const s of SCENARIOS.filter((s) => s.method === 'GET' && !s.credential)) responses[`GET ${s.path}`] = await capture(service.base, 'GET', s.path)
  responses['POST /api/site/contato'] = await capture(service.base, 'POST', '/api/site/contato', '{"nome":"M","email":"maria@empresa","mensagem":"Ola"}')
  const responsesFile = join(outDir, 'responses.json')
  writeFileSync(responsesFile, JSON.stringify(responses))

  const baselines: Partial<Record<Baseline, Started>> = {}
  for (const [name, file] of [['bare', 'bare.mjs'], ['fastify', 'fastify-min.mjs']] as const) {
    const port = await freePort()
    baselines[name] = await startServer(pinned(SERVER_CPU, [process.execPath, join(here, 'baselines', file)]),
      { ...process.env, BENCH_RESPONSES: responsesFile, PORT: String(port) }, port, join(outDir, `${name}.log`), '/api/health')
  }

  const load = async (s: Scenario, base: string, seconds: number) => {
    if (s.credential === 'dpop') await makeProofs(s, seconds)
    const result = await wrk({
      url: base + pathOf(s), seconds, connections: s.connections, cpu: LOAD_CPU, script: s.script ? join(here, 'load', s.script) : undefined,
      env: { BENCH_RUN: randomBytes(4).toString('hex'), BENCH_PROOFS: proofsFile, BENCH_OPERATIONS: operationsOf.get(s.name) ?? '' }, headers: authHeaders(s),
    })
    lastRps.set(s.name, Math.max(result.rps, lastRps.get(s.name) ?? 0))
    return result
  }
  /** The service's run with the CPU it used per request (user and system time of its process, in µs). */
  const loadService = async (s: Scenario, seconds: number): Promise<LoadResult & { cpuUs: number | null }> => {
    const before = cpuMicros(service.child.pid)
    const result = await load(s, service.base, seconds)
    const after = cpuMicros(service.child.pid)
    return { ...result, cpuUs: before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests }
  }
  const pgbenchScript = (s: Scenario) => s.pgbench === 'select-only' ? ['-S']
    : s.pgbench === 'extrato' || s.pgbench === 'lancamentos' ? ['-f', ledger!.scripts[s.pgbench]]
      : s.pgbench === 'cotacao' ? quoteScripts.flatMap((f) => ['-f', `${f}@1`])
        : s.pgbench === 'lists' ? ['-f', lists!.script] : ['-f', join(here, 'load', 'contact.pgbench.sql')]
  // A customer's statements as the service runs them: as the runtime role, so row security applies to both.
  const pgbenchEnv = (s: Scenario) =>
    s.pgbench === 'extrato' || s.pgbench === 'lancamentos' || s.pgbench === 'cotacao' || s.pgbench === 'lists'
      ? { ...process.env, PGOPTIONS: '-c role=fct_servico' } : process.env
  const pgbench = async (s: Scenario, seconds: number) => parsePgbench(await runCaptured(pinned(SERVER_CPU,
    ['pgbench', '-n', '-M', pgbenchMode, `-c${s.connections}`, '-j1', `-T${seconds}`, ...pgbenchScript(s), dbUrl]), pgbenchEnv(s)))

  const rows = []
  let twoCustomers: TwoCustomersResult | undefined
  let statusQueries: { flooded: number, idle: number } | undefined
  let quote1000Ms: number | undefined
  let retorno: RetornoResult | undefined
  let webhooks: WebhookResult | undefined
  for (const s of scenarios) {
    if (s.webhooks) {
      webhooks = await runWebhooks({ base: service.base, dbUrl, clienteId: customer.id!, token, serverCpu: SERVER_CPU, loadCpu: LOAD_CPU, benchDir: here,
        outDir, quick, log })
      continue
    }
    if (s.retorno) {
      product ??= await productData(call)
      const [operacaoId] = await draftOperations(call, product, 1, 1)
      retorno = await runRetorno({
        base: service.base, dbUrl, clienteId: customer.id!, token, operacaoId: operacaoId!, cedenteId: product.cedente, sacadoId: product.sacado,
        outDir, servicePid: service.child.pid, serverCpu: SERVER_CPU, loadCpu: LOAD_CPU, quick, log,
      })
      await settleOutbox((text) => admin(text, [], dbUrl), log)
      continue
    }
    if (s.flood) {
      twoCustomers = await runTwoCustomers({ ...s, flood: s.flood }, {
        base: service.base, servicePid: service.child.pid, cliJson, loadCpu: LOAD_CPU, loadDir: join(here, 'load'), rounds: ROUNDS,
        seconds: SECONDS, warmupSeconds: WARMUP_S, quick, log,
        activeQueries: async () => Number((await admin(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active'
          AND pid <> pg_backend_pid()`, [dbName], dbUrl))[0].n),
      })
      continue
    }
    await prepareOperations(s)
    await prepareLedger(s)
    await prepareLists(s)
    if (s.operations) {
      quote1000Ms = await quoteOfThousand()
      log(`one quote of 1,000 títulos: ${quote1000Ms.toFixed(0)} ms (median of five)`)
    }
    log(`${s.name}: warm-up`)
    await load(s, service.base, WARMUP_S)
    for (const b of s.baselines) if (b !== 'pgbench') await load(s, baselines[b]!.base, WARMUP_S)
    const runs: Record<string, LoadResult[]> = { service: [], ...Object.fromEntries(s.baselines.map((b) => [b, []])) }
    if (s.path === '/api/status') statusQueries = await countStatusQueries(() => load(s, service.base, SECONDS))
    const measure = async (who: string) => {
      runs[who]!.push(who === 'service' ? await loadService(s, SECONDS)
        : who === 'pgbench' ? await pgbench(s, SECONDS) : await load(s, baselines[who as Baseline]!.base, SECONDS))
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = ['service', ...s.baselines]
      for (const who of round % 2 ? order.reverse() : order) await measure(who)
    }
    const med = (who: string, k: keyof LoadResult | 'cpuUs') =>
      median(runs[who]!.map((r) => (r as Record<string, unknown>)[k] as number).filter((v) => v !== null && v !== undefined))
    const paired = s.baselines.length ? runs.service!.map((r, i) => r.rps / runs[s.baselines[0]!]![i]!.rps) : []
    const ratio = paired.length ? median(paired) : NaN
    const errors = runs.service!.reduce((a, r) => a + r.socketErrors + (s.non2xxExpected ? 0 : r.non2xx), 0)
    rows.push({
      scenario: s.name, connections: s.connections, service_rps: med('service', 'rps'),
      baselines: Object.fromEntries(s.baselines.map((b) => [b, med(b, 'rps')])), ratio, ratio_quartiles: quartiles(paired), target: s.target,
      p50_ms: med('service', 'p50'), p99_ms: med('service', 'p99'), p99_max_ms: s.p99Max ?? null, errors, cpu_us_per_request: med('service', 'cpuUs'),
      rss_mb: rssMb(service.child.pid), rounds: runs,
      ok: (s.target === undefined || ratio >= s.target) && errors === 0 && (s.p99Max === undefined || med('service', 'p99') <= s.p99Max),
    })
    log(`${s.name}: ${med('service', 'rps').toFixed(0)} req/s, ratio ${ratio.toFixed(2)}, ${med('service', 'cpuUs').toFixed(0)} µs CPU per request`)
    await settleOutbox((text) => admin(text, [], dbUrl), log)
  }

  log(`RSS after ${SOAK_S} s of load on /api/status`)
  await load(SCENARIOS.find((s) => s.path === '/api/status')!, service.base, SOAK_S)
  const rssAfterLoad = rssMb(service.child.pid)
  const stopped = await service.stop()
  for (const b of Object.values(baselines)) await b.stop()

  const summary = {
    when: new Date().toISOString(), quick, seconds: SECONDS, rounds: ROUNDS, pinned: pin, node: process.version,
    cpus: availableParallelism(), pgbench_mode: pgbenchMode, startup_ms: median(readyTimes), startup_target_ms: 1000,
    rss_after_load_mb: rssAfterLoad, rss_target_mb: 120, status_transactions_per_s: statusQueries, service_exit_code: stopped,
    quote_1000_titulos_ms: quote1000Ms ?? null, quote_1000_target_ms: 1000, rows, two_customers: twoCustomers ?? null, retorno: retorno ?? null,
    webhooks: webhooks ?? null,
  }
  writeFileSync(join(outDir, 'results.json'), JSON.stringify(summary, null, 2))
  printTable(summary)
  console.log(`\nresults: ${join('bench/results', stamp, 'results.json')} (access log: service.log)`)
}

type Row = { scenario: string, service_rps: number, baselines: Record<string, number>, ratio: number, ratio_quartiles: [number, number],
  target: number | undefined, p50_ms: number, p99_ms: number, errors: number, cpu_us_per_request: number, rss_mb: number | null, ok: boolean }

function printTable(s: { rows: Row[], startup_ms: number, rss_after_load_mb: number | null, quote_1000_titulos_ms: number | null,
  status_transactions_per_s?: { flooded: number, idle: number }, two_customers: TwoCustomersResult | null, retorno: RetornoResult | null,
  webhooks: WebhookResult | null }) {
  const f = (n: number, d = 0) => Number.isFinite(n) ? n.toFixed(d) : '—'
  if (s.rows.length) {
    console.log('\n| scenario | service req/s | baseline req/s | ratio (target) | quartiles | p50 ms | p99 ms | CPU µs/req | errors | RSS MB | |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  }
  for (const r of s.rows) {
    const base = Object.entries(r.baselines).map(([k, v]) => `${k} ${f(v)}`).join(', ')
    const target = r.target === undefined ? 'reported' : `≥ ${r.target.toFixed(2)}`
    console.log(`| ${r.scenario} | ${f(r.service_rps)} | ${base || '—'} | ${f(r.ratio, 2)} (${target}) | `
      + `${f(r.ratio_quartiles[0], 2)}–${f(r.ratio_quartiles[1], 2)} | ${f(r.p50_ms, 2)} | ${f(r.p99_ms, 2)} | ${f(r.cpu_us_per_request)} | `
      + `${r.errors} | ${r.rss_mb ?? '—'} | ${r.ok ? 'ok' : 'below'} |`)
  }
  const q = s.status_transactions_per_s
  console.log(`\nstart-up to ready (migrated PostgreSQL): ${f(s.startup_ms)} ms (target ≤ 1000)`)
  console.log(`RSS after the load: ${s.rss_after_load_mb ?? '—'} MB (target ≤ 120)`)
  if (s.quote_1000_titulos_ms !== null) console.log(`one quote of 1,000 títulos: ${f(s.quote_1000_titulos_ms)} ms (target < 1000; median of five, one client)`)
  if (q) {
    console.log(`database transactions/s while /api/status is flooded: ${f(q.flooded, 1)} (idle: ${f(q.idle, 1)}; `
      + `the flood adds ${f(q.flooded - q.idle, 1)})`)
  }
  const t = s.two_customers
  if (t) {
    const answers = (x: Record<string, number>) => Object.entries(x).map(([code, n]) => `${code}: ${n}`).join(', ') || '—'
    console.log(`\n${t.scenario}: B ${t.b_connections} connections, each waiting ${t.b_pace_ms} ms between answers; A ${t.a_connections} connections `
      + `over ${t.a_operations} operations of ${t.a_titles_each} títulos (one more refused with limite ${t.cap_answered ?? 'none: not refused'}); `
      + `${t.rounds.alone.length} rounds of ${t.seconds} s each side`)
    console.log('\n| customer | req/s | p50 ms | p99 ms | answers (all rounds) | socket errors |')
    console.log('|---|---:|---:|---:|---|---:|')
    for (const [who, r] of [['B alone', t.b_alone], ['B while A floods', t.b_flooded], ['A flooding', t.a]] as const) {
      const ms = (x: number) => x === Infinity ? 'no answer' : f(x, 2)
      console.log(`| ${who} | ${f(r.rps)} | ${ms(r.p50_ms)} | ${ms(r.p99_ms)} | ${answers(r.statuses)} | ${r.socket_errors} |`)
    }
    const r = (x: number) => x === Infinity ? '∞' : f(x, 2)
    console.log(`\nB's p99 while A floods over B's p99 alone: ${r(t.p99_ratio)} (quartiles ${r(t.p99_ratio_quartiles[0])}–`
      + `${r(t.p99_ratio_quartiles[1])}; median of ${t.rounds.alone.length} paired rounds, ∞ where B had no answer while A flooded; `
      + `load average ${f(Math.min(...t.rounds.load_average), 1)}–${f(Math.max(...t.rounds.load_average), 1)})`)
  }
  const rt = s.retorno
  if (rt) {
    console.log(`\nretorno: ${rt.lines} lines (${rt.titulos} títulos, ${f(rt.bytes / 1e6, 1)} MB) applied in ${f(rt.service_seconds, 1)} s: `
      + `${f(rt.service_lines_per_s)} títulos a second against pgbench's ${f(rt.pgbench_lines_per_s)} of one line's statements, ratio `
      + `${f(rt.ratio, 2)} (${rt.target}); RSS ${rt.rss_before_mb ?? '—'} MB before, ${rt.rss_max_mb ?? '—'} MB at most, growing `
      + `${rt.rss_growth_mb ?? '—'} MB (< ${rt.rss_target_mb}); boletos ${f(rt.boleto_html_rps)} HTML and ${f(rt.boleto_pdf_rps)} PDF a second `
      + `${rt.ok ? 'ok' : 'NOT MET'}`)
  }
  const w = s.webhooks
  if (w) {
    console.log(`\nwebhook delivery: ${w.events} events with the backlog drained at ${f(w.service_events_per_s)} a second against `
      + `${f(w.baseline_events_per_s)} bare POSTs a second to the same receiver, ratio ${f(w.ratio, 2)} (reported); commit to arrival `
      + `p50 ${f(w.latency_p50_ms, 1)} ms, p99 ${f(w.latency_p99_ms, 1)} ms (${w.latency_events} events, twenty a second); the contact form's `
      + `mail, commit to sandbox delivery, p50 ${f(w.mail_p50_ms, 1)} ms, p99 ${f(w.mail_p99_ms, 1)} ms (${w.mail_messages} messages)`)
  }
}

try {
  await main()
} finally {
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err) => log(`could not drop ${dbName}: ${(err as Error).message}`))
  rmSync(dataDir, { recursive: true, force: true })
}

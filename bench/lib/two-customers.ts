// Issue 31 item 9: two customers on one service. Customer A floods its own operations of the most títulos one
// may hold; customer B reads its cedentes. B's latency is measured alone and while A floods, in paired rounds of
// the same run, each side by its own wrk process, and A's answers are counted by status (200s, and the 429s or
// 503s of a bound on a customer's heavy work). A red team once made B wait 7.4 s, and answered it 503s, while A
// read one operation of 50,000 títulos twelve times at once.
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { cpuMicros } from './processes.ts'
import { apiCaller, productData, titulosFor, type Call, type ProductData } from './operations.ts'
import { wrk, type LoadResult } from './wrk.ts'

/** A request's most títulos (the API's TITULOS_POR_PEDIDO): a big operation is made in steps of this many. */
const PER_REQUEST = 1000
/** Long enough that no answer of the flood's is lost as a wrk timeout: a slow answer is what is measured. */
const TIMEOUT_S = 60

export type Flood = {
  /** Customer A's wrk connections. */
  connections: number
  /** A's operations, read, quoted and listed in turn (bench/load/flood.lua). */
  operations: number
  /** Títulos in each: OPERACAO_MAX_TITULOS (5,000 by default); the run checks that one more is refused. */
  titles: number
  /** Milliseconds each of B's connections waits between an answer and its next request (bench/load/neighbour.lua). */
  paceMs: number
  /**
   * Each measurement of B, in seconds (BENCH_SECONDS when longer; --quick's own): wrk counts only the answers that
   * come within it, so it must be long beside the slowest answer, or the slowest are never counted.
   */
  seconds: number
}

export type TwoCustomersDeps = {
  base: string
  servicePid: number | undefined
  cliJson: (...args: string[]) => Promise<Record<string, string>>
  /** Statements running in the bench database other than the asker's own. */
  activeQueries: () => Promise<number>
  loadCpu: number | undefined
  loadDir: string
  rounds: number
  seconds: number
  warmupSeconds: number
  quick: boolean
  log: (s: string) => void
}

/** One wrk run's numbers; p50 and p99 null when nothing was answered within it. */
type Side = { rps: number, p50: number | null, p99: number | null, requests: number, statuses: Record<string, number>, socketErrors: number }
type Summary = { rps: number, p50_ms: number, p99_ms: number, requests: number, statuses: Record<string, number>, socket_errors: number }
export type TwoCustomersResult = {
  scenario: string, b_connections: number, b_pace_ms: number, a_connections: number, a_operations: number, a_titles_each: number,
  /** The cap as the service answered it (409 limite_de_titulos's `limite`) when one more título was sent. */
  cap_answered: number | null,
  /** Each measurement's length in seconds. */
  seconds: number,
  b_alone: Summary, b_flooded: Summary, a: Summary,
  /**
   * Median of the rounds' B p99 while A floods over B p99 alone, measured seconds apart, with its quartiles; a round
   * where B had no answer while A flooded counts as an infinite ratio (null in the JSON when it is the median).
   */
  p99_ratio: number, p99_ratio_quartiles: [number, number],
  /** The machine's one-minute load average after each round: above 2 on these two CPUs, something else ran beside. */
  rounds: { alone: Side[], flooded: Side[], a: Side[], load_average: number[] },
}

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.round((s.length - 1) * q)]! : NaN }
/** A run with no answer counts as the slowest: its latency was longer than the run. */
const median = (xs: (number | null)[]) => quantile(xs.map((x) => x ?? Infinity), 0.5)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const side = (r: LoadResult): Side => ({
  rps: r.rps, p50: r.requests ? r.p50 : null, p99: r.requests ? r.p99 : null, requests: r.requests, statuses: r.statuses ?? {}, socketErrors: r.socketErrors,
})
const sum = (xs: Side[]) => xs.reduce<Record<string, number>>((acc, x) => {
  for (const [code, n] of Object.entries(x.statuses)) acc[code] = (acc[code] ?? 0) + n
  return acc
}, {})
const summary = (xs: Side[]): Summary => ({
  rps: median(xs.map((x) => x.rps)), p50_ms: median(xs.map((x) => x.p50)), p99_ms: median(xs.map((x) => x.p99)),
  requests: xs.reduce((a, x) => a + x.requests, 0), statuses: sum(xs), socket_errors: xs.reduce((a, x) => a + x.socketErrors, 0),
})

/** A valid CNPJ from twelve digits (its two check digits computed), so each of B's cedentes is its own. */
function cnpj(base: string): string {
  const check = (digits: string) => {
    const weights = digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    const r = [...digits].reduce((a, c, i) => a + Number(c) * weights[i]!, 0) % 11
    return String(r < 2 ? 0 : 11 - r)
  }
  const first = base + check(base)
  return first + check(first)
}

/** A customer and a token of its own, made as the operator makes them. */
async function customer(deps: TwoCustomersDeps, nome: string, escopos: string) {
  const made = await deps.cliJson('clientes', 'criar', '--nome', nome)
  const { token } = await deps.cliJson('tokens', 'criar', '--cliente', made.id!, '--nome', 'bench', '--escopos', escopos, '--expira-em', '1d')
  return { id: made.id!, token: token! }
}

/**
 * `count` operations of `titles` títulos each, made as an integration makes them: created with a request's
 * thousand, then grown a thousand at a time. Then one título more is sent to the last: answers the cap the
 * service refused it with (409 limite_de_titulos), or null when it took it (the cap is not where the run thinks).
 */
async function bigOperations(base: string, token: string, call: Call, data: ProductData, count: number, titles: number) {
  const ids: string[] = []
  for (let o = 0; o < count; o++) {
    const first = titulosFor(data, o, 0, Math.min(titles, PER_REQUEST))
    const op = await call('POST', '/api/operacoes', { cedente_id: data.cedente, produto_id: data.produto, titulos: first })
    const id = op.id as string
    for (let from = PER_REQUEST; from < titles; from += PER_REQUEST) {
      await call('POST', `/api/operacoes/${id}/titulos`, { titulos: titulosFor(data, o, from, Math.min(PER_REQUEST, titles - from)) })
    }
    ids.push(id)
  }
  const res = await fetch(`${base}/api/operacoes/${ids.at(-1)}/titulos`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ titulos: titulosFor(data, count, titles, 1) }),
  })
  const body = await res.json() as { detail?: string, limite?: number }
  return { ids, cap: res.status === 409 && body.detail === 'limite_de_titulos' ? body.limite ?? null : null }
}

/**
 * Waits until the service has finished what the flood left in it (its CPU under 5 % for half a second, no
 * statement running in the database), so the next measurement of B alone is alone; at most a minute.
 */
async function settle(deps: TwoCustomersDeps) {
  const started = Date.now()
  while (Date.now() - started < 60_000) {
    const before = cpuMicros(deps.servicePid)
    await sleep(500)
    const after = cpuMicros(deps.servicePid)
    const idle = before === null || after === null || after - before < 25_000
    if (idle && await deps.activeQueries() === 0) return
  }
  deps.log('the service still busy a minute after the flood: the next measurement of B alone shares it')
}

export type TwoCustomersScenario = { name: string, path: string, connections: number, script?: string, flood: Flood }

export async function runTwoCustomers(s: TwoCustomersScenario, deps: TwoCustomersDeps): Promise<TwoCustomersResult> {
  const { name, path, connections: bConnections, flood } = s
  const operations = deps.quick ? Math.min(2, flood.operations) : flood.operations
  deps.log(`${name}: customer A's ${operations} operations of ${flood.titles} títulos, customer B's 5 cedentes`)
  const a = await customer(deps, 'Cliente A do bench (inunda)', 'cadastro,operacoes')
  const callA = apiCaller(deps.base, a.token)
  const data = await productData(callA)
  const { ids, cap } = await bigOperations(deps.base, a.token, callA, data, operations, flood.titles)
  if (cap === null) deps.log(`${name}: one título more than ${flood.titles} was not refused with limite_de_titulos`)
  for (const id of ids) await callA('POST', `/api/operacoes/${id}/cotacao`)
  const b = await customer(deps, 'Cliente B do bench (vizinho)', 'cadastro')
  const callB = apiCaller(deps.base, b.token)
  for (let i = 0; i < 5; i++) {
    const documento = cnpj(`2233344${String(i).padStart(4, '0')}1`)
    await callB('POST', '/api/cedentes', { documento, razao_social: `Cedente ${i} do vizinho Ltda`, perfil_iof: 'pj' })
  }

  const env = { BENCH_LOAD_DIR: deps.loadDir, BENCH_OPERATIONS: ids.join(','), BENCH_PACE_MS: String(flood.paceMs) }
  const runB = (seconds: number) => wrk({
    url: deps.base + path, seconds, connections: bConnections, cpu: deps.loadCpu, script: join(deps.loadDir, s.script ?? 'neighbour.lua'), env,
    headers: [`Authorization: Bearer ${b.token}`], timeoutSeconds: TIMEOUT_S,
  })
  // The flood begins a second before B's measurement and ends a second after it, so B meets it in full.
  const runA = (seconds: number) => wrk({
    url: deps.base, seconds, connections: flood.connections, cpu: deps.loadCpu, script: join(deps.loadDir, 'flood.lua'), env,
    headers: [`Authorization: Bearer ${a.token}`], timeoutSeconds: TIMEOUT_S,
  })
  const flooded = async (seconds: number) => {
    const aRun = runA(seconds + 2)
    await sleep(1000)
    const bRun = await runB(seconds)
    const aDone = await aRun
    await settle(deps)
    return { b: bRun, a: aDone }
  }

  deps.log(`${name}: warm-up`)
  await runB(deps.warmupSeconds)
  await flooded(deps.warmupSeconds)
  const seconds = deps.quick ? deps.seconds : Math.max(deps.seconds, flood.seconds)
  const rounds: TwoCustomersResult['rounds'] = { alone: [], flooded: [], a: [], load_average: [] }
  for (let round = 0; round < deps.rounds; round++) {
    const steps = [
      async () => { rounds.alone.push(side(await runB(seconds))) },
      async () => { const r = await flooded(seconds); rounds.flooded.push(side(r.b)); rounds.a.push(side(r.a)) },
    ]
    for (const step of round % 2 ? steps.reverse() : steps) await step()
    rounds.load_average.push(loadavg()[0]!)
    const [alone, during, byA] = [rounds.alone.at(-1)!, rounds.flooded.at(-1)!, rounds.a.at(-1)!]
    deps.log(`${name}: round ${round + 1}: B p99 ${alone.p99} ms alone, ${during.p99 ?? 'no answer'} ms while A floods `
      + `(${during.requests} answers; A: ${byA.rps.toFixed(0)} req/s, ${JSON.stringify(byA.statuses)}); load average ${loadavg()[0]!.toFixed(1)}`)
  }
  const paired = rounds.alone.map((r, i) => (rounds.flooded[i]!.p99 ?? Infinity) / (r.p99 ?? NaN)).filter((x) => !Number.isNaN(x))
  return {
    scenario: name, b_connections: bConnections, b_pace_ms: flood.paceMs, a_connections: flood.connections, a_operations: operations,
    a_titles_each: flood.titles, cap_answered: cap, seconds, b_alone: summary(rounds.alone), b_flooded: summary(rounds.flooded),
    p99_ratio: quantile(paired, 0.5), p99_ratio_quartiles: [quantile(paired, 0.25), quantile(paired, 0.75)], a: summary(rounds.a), rounds,
  }
}

// What is measured, against which baseline, and the target ratio each must reach (issue 8's table).
import type { Flood } from './lib/two-customers.ts'

export type Baseline = 'bare' | 'fastify' | 'pgbench'

export type Scenario = {
  name: string
  method: 'GET' | 'POST'
  path: string
  /** A wrk Lua script under bench/load/ for bodies. */
  script?: string
  connections: number
  /** The first gives the ratio; none: the scenario's req/s, latencies and CPU per request are reported alone. */
  baselines: Baseline[]
  /** Minimum service/baseline ratio against the first baseline; none where the issue asks for the numbers alone. */
  target?: number
  /** Maximum p99 in ms, where the issue sets one. */
  p99Max?: number
  /** Expected answers are not 2xx (the 422 path): wrk's non-2xx count is then not an error. */
  non2xxExpected?: boolean
  /**
   * Sent with a customer's personal access token made for the run by the operator's CLI: `bearer` an unbound one
   * (`Authorization: Bearer`), `dpop` one bound to a key, each request with its own proof (bench/load/dpop.lua).
   */
  credential?: 'bearer' | 'dpop'
  /** Draft operations made through the API before the scenario, their ids given to its script (BENCH_OPERATIONS). */
  operations?: { count: number, titles: number }
  /**
   * What pgbench runs as the baseline: the contact form's own transaction (default), its built-in select-only
   * (`-S`), or a ledger route's own statements in the customer's transaction as the runtime role (bench/lib/ledger.ts).
   */
  pgbench?: 'contact' | 'select-only' | 'extrato' | 'lancamentos' | 'cotacao' | 'lists'
  /** Run on the customer's 100,000 ledger entries (seeded once); `{cedente}`, `{de}` and `{ate}` in the path are filled in. */
  ledger?: boolean
  /**
   * Two customers of their own (bench/lib/two-customers.ts): the path is customer B's read, paced, measured alone
   * and while customer A floods its big operations from another wrk process; no baseline, B's two p99s compared.
   */
  flood?: Flood
  /** Run on the customer's 10,000 operations (seeded once, bench/lib/lists.ts); `{lists}` in the path is the filtered list's. */
  lists?: boolean
  /** A retorno of 100,000 lines applied (bench/lib/retorno.ts): its own seed, its own pgbench script, and the boletos after. */
  retorno?: boolean
  /** Webhook delivery to a local receiver (bench/lib/webhooks.ts): events a second against bare POSTs, commit-to-arrival latency, mail's beside. */
  webhooks?: boolean
}

export const SCENARIOS: Scenario[] = [
  { name: 'GET /api/health', method: 'GET', path: '/api/health', connections: 50, baselines: ['bare', 'fastify'], target: 0.70, p99Max: 5 },
  { name: 'GET /api/version', method: 'GET', path: '/api/version', connections: 50, baselines: ['bare', 'fastify'], target: 0.65 },
  { name: 'GET /api/site/contato/assuntos', method: 'GET', path: '/api/site/contato/assuntos', connections: 50, baselines: ['bare', 'fastify'], target: 0.65 },
  { name: 'GET /api/status', method: 'GET', path: '/api/status', connections: 50, baselines: ['bare', 'fastify'], target: 0.60 },
  { name: 'GET / (HTML)', method: 'GET', path: '/', connections: 50, baselines: ['bare'], target: 0.50 },
  { name: 'GET /status (HTML)', method: 'GET', path: '/status', connections: 50, baselines: ['bare'], target: 0.50 },
  {
    name: 'POST /api/site/contato (202)', method: 'POST', path: '/api/site/contato', script: 'contact.lua', connections: 20,
    baselines: ['pgbench'], target: 0.50, p99Max: 25,
  },
  {
    // Issue 19: a credentialed read costs at most one indexed read before its handler, so it stands against
    // PostgreSQL's own fastest read on the same machine.
    name: 'GET /api/conta (Bearer)', method: 'GET', path: '/api/conta', connections: 20, baselines: ['pgbench'], pgbench: 'select-only',
    credential: 'bearer', target: 0.30,
  },
  {
    // The same read with a proof of possession: its signature checked, its jti recorded once (a write, made cheap).
    name: 'GET /api/conta (DPoP)', method: 'GET', path: '/api/conta', script: 'dpop.lua', connections: 20, baselines: ['pgbench'],
    pgbench: 'select-only', credential: 'dpop', target: 0.15,
  },
  {
    // Issue 19: pricing ten títulos, nothing stored; its req/s and CPU per request beside the health probe's.
    name: 'POST /api/simulacoes (10 títulos)', method: 'POST', path: '/api/simulacoes', script: 'simulation.lua', connections: 20,
    baselines: [], credential: 'bearer',
  },
  {
    // Issue 19: quoting an operation of 100 títulos (a new version each time, written under the operation's lock),
    // over 40 such operations in turn, against pgbench running the statements a quote runs (bench/lib/operations.ts);
    // its p50 and p99. bench/run.ts also times one quote of 1,000 títulos.
    name: 'POST /api/operacoes/{id}/cotacao (100 títulos)', method: 'POST', path: '/api/operacoes', script: 'quote.lua', connections: 20,
    baselines: ['pgbench'], pgbench: 'cotacao', credential: 'bearer', operations: { count: 40, titles: 100 }, target: 0.50,
  },
  {
    // Issue 19: a cedente's conta gráfica for a month, and the latest page of entries, on 100,000 entries: against
    // pgbench running the same statements in the same transaction; the indexes are migration 0020's.
    name: 'GET /api/cedentes/{id}/extrato (100,000 lançamentos)', method: 'GET', path: '/api/cedentes/{cedente}/extrato?de={de}&ate={ate}',
    connections: 20, baselines: ['pgbench'], pgbench: 'extrato', credential: 'bearer', ledger: true, target: 0.50,
  },
  {
    name: 'GET /api/lancamentos (100,000 lançamentos)', method: 'GET', path: '/api/lancamentos?limite=50', connections: 20, baselines: ['pgbench'],
    pgbench: 'lancamentos', credential: 'bearer', ledger: true, target: 0.50,
  },
  {
    // Issue 32: the first page of a filtered, searched list of 10,000 operations (its count and its títulos' totals
    // too) against pgbench running the SQL that computes it, in the same transaction: within 2×.
    name: 'lists: GET /api/operacoes filtered (10,000 operações)', method: 'GET', path: '{lists}', connections: 20, baselines: ['pgbench'],
    pgbench: 'lists', credential: 'bearer', lists: true, target: 0.50,
  },
  {
    name: 'POST /api/site/contato (422)', method: 'POST', path: '/api/site/contato', script: 'invalid.lua', connections: 50,
    baselines: ['bare'], target: 0.50, non2xxExpected: true,
  },
  {
    // Issue 33: a retorno of 100,000 lines (50,000 títulos of a 240) applied, against pgbench of one line's statements;
    // the service's RSS sampled while it runs; then the boleto's HTML and PDF rendered a second.
    name: 'POST /api/cnab/retornos (100,000 lines)', method: 'POST', path: '/api/cnab/retornos', connections: 1, baselines: [], credential: 'bearer',
    retorno: true,
  },
  {
    // Issue 34: events a second delivered to a local receiver with the backlog drained, against the same POSTs with no
    // database (the baseline), and the latency from a change's commit to its arrival, beside the contact form's mail.
    name: 'webhook delivery', method: 'POST', path: '/api/webhooks', connections: 1, baselines: [], credential: 'bearer', webhooks: true,
  },
  {
    // Issue 31 item 9: a customer's reads keep their latency while another floods its operations of the most
    // títulos one may hold (reads of the whole operation, quotes, pages of its títulos) on 40 connections.
    // Last: its quotes write large rows, which no other scenario should meet.
    name: 'two customers: B\'s GET /api/cedentes while A floods', method: 'GET', path: '/api/cedentes', script: 'neighbour.lua', connections: 10,
    baselines: [], credential: 'bearer', flood: { connections: 40, operations: 8, titles: 5000, paceMs: 20, seconds: 10 },
  },
]

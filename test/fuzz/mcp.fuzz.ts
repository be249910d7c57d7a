// Fuzzing the MCP tools (part of `npm run test:fuzz`): every tool tools/list answers, called with generated
// arguments for every property of its input schema and some it lacks: control characters (C0, C1, line breaks,
// bidi overrides), the same text in NFC and NFD, huge and odd numbers, wrong types. Every call is answered as a
// tool result or a tool error whose `detail` is a catalogue code or the 422 items; never a JSON-RPC error, an HTTP
// 5xx, or `servico_indisponivel` (what a query that fails on its input answers). The seed is printed;
// FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { SCOPES } from '../../src/modules/credentials/scopes.ts'
import { PROBLEMS } from '../../src/platform/http/problem-catalogue.ts'
import { API_ENV, issueToken } from '../helpers/api-credentials.ts'
import { customer } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { mcpClient, rpc, toolCall } from '../modules/mcp/helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20_2026)
const RUNS = Number(process.env.FUZZ_MCP_RUNS ?? 400)
console.log(`fuzz (mcp): seed ${SEED}, ${RUNS} tool calls (replay with FUZZ_SEED=${SEED})`)

const CONTROLS = [
  '\u0000', '\u0007', '\u0008', '\t', '\n', '\r', '\r\n', '\u000b', '\u000c', '\u001b', '\u001b[31m', '\u001b]0;titulo\u0007',
  '\u001b]52;c;ZXZpbA==\u0007', '\u007f', '\u0085', '\u009b', '\u009d', '\u2028', '\u2029', '\u200b', '\u200e', '\u202a', '\u202e',
  '\u2066', '\u2069', '\ufeff', '\ud800', '\udfff',
]
/** The same text twice, composed and decomposed: é as one code point and as e with a combining accent. */
const NFC_NFD = ['José', 'ação', 'Ångström', 'ñandú', 'çãõ'].flatMap((s) => [s.normalize('NFC'), s.normalize('NFD')])
const HUGE = [1e300, -1e300, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER,
  999_999_999_999_999, 1_000_000_000_000_000, 0, -1, 0.5, 1e-300, -0]

const text = fc.oneof(
  fc.constantFrom(...CONTROLS, ...NFC_NFD),
  fc.tuple(fc.constantFrom(...NFC_NFD), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 20 })).map(([a, b, c]) => a + b + c),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('a'.repeat(10_000), `${'x'.repeat(30)}@example.com`, 'nome@exemplo.com.br'),
)
const number = fc.oneof(fc.constantFrom(...HUGE), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
const value = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 4, arbitrary: number },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, ['a'], { __proto__: 1 }, [1e300]) },
)

type ToolInfo = { name: string, properties: string[] }
type Answer = { result?: { isError?: boolean, content?: { text: string }[] }, error?: unknown }

function call(tools: ToolInfo[]): fc.Arbitrary<{ tool: string, args: Record<string, unknown> }> {
  return fc.constantFrom(...tools).chain((tool) => {
    // One argument hostile and the others left out (so it is the one checked), or every one at random, now and
    // then with one the schema does not declare.
    const one = tool.properties.length
      ? fc.constantFrom(...tool.properties).chain((p) => value.map((v): Record<string, unknown> => ({ [p]: v })))
      : fc.constant({})
    const all = fc.tuple(
      fc.record(Object.fromEntries(tool.properties.map((p) => [p, value])), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.constantFrom('extra', 'constructor', ''), value), { nil: undefined }),
    ).map(([declared, extra]): Record<string, unknown> => (extra ? { ...declared, [extra[0]]: extra[1] } : declared))
    return fc.record({ tool: fc.constant(tool.name), args: fc.oneof(one, all) })
  })
}

describe('fuzz: generated arguments for every MCP tool', () => {
  const ctx = useTestApp({ env: { ...API_ENV, RATE_LIMIT_ALLOWLIST: '127.0.0.1', MAIL_WORKER: 'off' }, listen: true, contactBudget: 1_000_000 })

  it(`${RUNS} calls: every one answered as a tool result or a catalogue refusal, never a 5xx or a failed query`, async (t) => {
    const c = await customer(ctx.db)
    const fresh = async () => (await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })).token
    let token = await fresh()
    const listed = (await (await mcpClient(t, ctx.base, token)).listTools()).tools
    const tools = listed.map((x) => ({ name: x.name, properties: Object.keys((x.inputSchema.properties ?? {}) as object) }))
    assert.ok(tools.length >= 8)
    const seen = new Map<string, number>()
    let id = 0

    await fc.assert(fc.asyncProperty(call(tools), async ({ tool, args }) => {
      // A token has its own budget (120 a minute), which the allowlist of addresses does not lift.
      if (++id % 100 === 0) token = await fresh()
      const res = await rpc(ctx.base, toolCall(id, tool, args), { authorization: `Bearer ${token}` })
      assert.ok(res.status < 500, `${tool} ${JSON.stringify(args)}: HTTP ${res.status}`)
      assert.equal(res.status, 200, `${tool}: HTTP ${res.status} ${await res.clone().text()}`)
      const answer = await res.json() as Answer
      assert.equal(answer.error, undefined, `${tool} ${JSON.stringify(args)}: a JSON-RPC error ${JSON.stringify(answer.error)}`)
      const result = answer.result!
      let outcome = 'ok'
      if (result.isError) {
        const detail = (JSON.parse(result.content![0]!.text) as { detail: unknown }).detail
        outcome = Array.isArray(detail) ? '422' : String(detail)
        if (!Array.isArray(detail)) assert.ok(detail as string in PROBLEMS, `${tool}: ${String(detail)} is a catalogue code`)
        assert.notEqual(detail, 'servico_indisponivel', `${tool} ${JSON.stringify(args)}: the input reached a failing query`)
        assert.notEqual(detail, 'erro_interno', `${tool} ${JSON.stringify(args)}`)
      }
      seen.set(`${tool} ${outcome}`, (seen.get(`${tool} ${outcome}`) ?? 0) + 1)
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (mcp): ${JSON.stringify(Object.fromEntries([...seen].sort()))}`)
    for (const tool of tools.filter((x) => x.properties.length > 0)) {
      assert.ok(seen.has(`${tool.name} 422`), `the run reached ${tool.name}'s argument check`)
    }
  })
})

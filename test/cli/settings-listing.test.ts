// `npm run cli -- configuracao`: every setting the service reads, from the schema, even when one is refused.
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { runCli } from '../../src/cli/commands.ts'
import { CONFIG_VARIABLES } from '../../src/config.ts'

function run(args: string[], env: Record<string, string>): Promise<{ code: number, text: string }> {
  const lines: string[] = []
  const out = { log: (s: string) => { lines.push(s) }, error: (s: string) => { lines.push(s) } }
  return runCli(args, out, env).then((code) => ({ code, text: lines.join('\n') }))
}

it('configuracao lists every variable with its default and bounds, exit 0, though PORT is refused', async () => {
  const { code, text } = await run(['configuracao'], { PORT: 'oitenta' })
  assert.equal(code, 0, text)
  const listed = text.split('\n').filter((l) => /^[A-Z]/.test(l)).map((l) => l.split(' ')[0])
  assert.deepEqual(listed, [...CONFIG_VARIABLES])
  assert.match(text, /^PORT {2,}the port to listen on\n {2,}default 3000; 0 to 65535$/m)
  assert.match(text, /^METRICS_PORT .*\n {2,}unset: off; 1 to 65535$/m)
  assert.match(text, /^ {2}"subjects" /m)
})

it('configuracao is in the help', async () => {
  const { text } = await run(['help'], {})
  assert.match(text, /^ {2}configuracao {2,}the settings/m)
})

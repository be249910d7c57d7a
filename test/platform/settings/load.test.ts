// The loader's own rules, apart from any area: a name declared twice is refused at composition, blank is unset,
// and a file key no area declares is refused by name.
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { it } from 'node:test'
import { ConfigError } from '../../../src/platform/lib/startup-error.ts'
import { int, text, type FileSetting } from '../../../src/platform/settings/kinds.ts'
import { compose, readSettings } from '../../../src/platform/settings/load.ts'

const port = int('X_PORT', { default: 1, min: 0, max: 9, description: 'x' })
const list: FileSetting<string[]> = {
  from: 'file', key: 'itens', description: 'x', read: (v, fail) => v === undefined ? [] : Array.isArray(v) ? v : fail('no'),
}

it('compose refuses a value name or a variable two areas declare', () => {
  assert.throws(() => compose({ port }, { port: text('X_HOST', { default: 'h', description: 'x' }) }), /port \(X_HOST\) is declared twice/)
  assert.throws(() => compose({ port }, { other: port }), /other \(X_PORT\) is declared twice/)
  assert.throws(() => compose({ list }, { again: list }), /SERVICE_CONFIG_FILE key "itens"/)
  assert.throws(() => compose({ file: text('SERVICE_CONFIG_FILE', { unset: 'x', description: 'x' }) }), /declared twice/)
})

it('reads blank as unset, each value by its kind, and the file\'s declared keys only', async () => {
  const schema = compose({ port }, { list })
  assert.deepEqual(readSettings(schema, { X_PORT: '  ' }), { port: 1, list: [] })
  assert.deepEqual(readSettings(schema, { X_PORT: ' 7 ' }), { port: 7, list: [] })
  const dir = await mkdtemp(join(tmpdir(), 'settings-load-'))
  try {
    await writeFile(join(dir, 'ok.json'), '{"itens": ["a"]}')
    await writeFile(join(dir, 'bad.json'), '{"itens": 1}')
    await writeFile(join(dir, 'other.json'), '{"item": []}')
    assert.deepEqual(readSettings(schema, { SERVICE_CONFIG_FILE: join(dir, 'ok.json') }).list, ['a'])
    const bad = { SERVICE_CONFIG_FILE: join(dir, 'bad.json') }
    assert.throws(() => readSettings(schema, bad), (e) => e instanceof ConfigError && e.message === 'SERVICE_CONFIG_FILE: no')
    assert.throws(() => readSettings(schema, { SERVICE_CONFIG_FILE: join(dir, 'other.json') }), /SERVICE_CONFIG_FILE: unknown key "item" \(expected "itens"\)/)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

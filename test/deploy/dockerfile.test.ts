// The Dockerfile, parsed (no container engine runs here): two stages, a production-only runtime that runs
// node as a non-root PID 1, stops on SIGTERM, checks /api/health, and carries the build stamps into ENV.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { Copy, Healthcheck } from 'dockerfile-ast'
import { CONFIG_VARIABLES } from '../../src/config.ts'
import { dockerfileStages, execForm, keyword, properties, ROOT } from './dockerfile-stages.ts'

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>, engines: { node: string } }
/** The one exact Node version production runs and CI tests on (.ci/run fetches it). */
const NODE_VERSION = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()

const { stages, preamble } = dockerfileStages()
const build = stages[0]!
const runtime = stages.at(-1)!
const runs = (stage: typeof build) => keyword(stage, 'RUN').map((i) => i.getArgumentsContent() ?? '')
const STAMPS = ['APP_VERSION', 'APP_COMMIT', 'APP_BUILD_TIME', 'APP_SCHEMA_VERSION']

describe('Dockerfile', () => {
  it('has a build stage with the dev dependencies and a separate runtime stage on the exact Node 24 of .nvmrc', () => {
    assert.equal(stages.length, 2)
    assert.equal(build.name, 'build')
    assert.ok(runs(build).some((r) => /^npm ci\b/.test(r) && !r.includes('--omit=dev')), 'the build stage installs every dependency')
    assert.ok(runs(build).some((r) => r.includes('npm run build')))
    const image = preamble.find((i) => i.getKeyword() === 'ARG' && i.getArgumentsContent()?.startsWith('NODE_IMAGE='))
    assert.match(NODE_VERSION, /^24\.\d+\.\d+$/, '.nvmrc names an exact Node 24 release')
    assert.equal(image?.getArgumentsContent(), `NODE_IMAGE=node:${NODE_VERSION}-bookworm-slim`)
    // A developer's machine may still run 20.19 (docs: NOTES-ops-deploy.md); production and CI run .nvmrc's.
    assert.equal(packageJson.engines.node, '>=20.19')
    assert.deepEqual(stages.map((s) => s.image), ['${NODE_IMAGE}', '${NODE_IMAGE}'])
  })

  it('installs only production dependencies in the runtime stage, without lifecycle scripts', () => {
    const install = runs(runtime).find((r) => /^npm ci\b/.test(r))
    assert.ok(install, 'the runtime stage runs npm ci')
    assert.match(install, /--omit=dev\b/)
    assert.match(install, /--ignore-scripts\b/)
  })

  it('copies dist/ from the build stage and content/ and package.json from the context', () => {
    const copies = (keyword(runtime, 'COPY') as Copy[]).map((i) => `${i.getFromFlag()?.getValue() ?? ''} ${i.getArgumentsContent() ?? ''}`.trim())
    assert.ok(copies.includes('build /app/dist ./dist'), copies.join(' | '))
    assert.ok(copies.includes('content ./content'))
    assert.ok(copies.some((c) => c.split(/\s+/).includes('package.json')))
  })

  it('runs as a non-root user, in production mode, listening on every interface', () => {
    const users = keyword(runtime, 'USER').map((i) => i.getArgumentsContent()?.trim() ?? '')
    assert.equal(users.length, 1)
    const [user] = users[0]!.split(':')
    assert.ok(user && user !== 'root' && user !== '0', `USER ${users[0]}`)
    const env = properties(runtime, 'ENV')
    assert.equal(env.get('NODE_ENV'), 'production')
    assert.equal(env.get('HOST'), '0.0.0.0')
    assert.equal(env.get('DATA_DIR'), '/app/data')
    // The V8 settings, the same in `npm start` (and the benchmark reads them from here).
    assert.equal(env.get('NODE_OPTIONS'), '--max-semi-space-size=8 --max-old-space-size=256')
    assert.match(packageJson.scripts.start ?? '', / --max-semi-space-size=8 --max-old-space-size=256 --enable-source-maps dist\/main\.js$/)
    const notSettings = ['NODE_ENV', 'NODE_OPTIONS']
    for (const name of env.keys()) {
      if (!notSettings.includes(name)) assert.ok((CONFIG_VARIABLES as readonly string[]).includes(name), `${name} is not a setting of the service`)
    }
    // The user's data directory is a volume the user owns.
    const volume = keyword(runtime, 'VOLUME').map((i) => i.getArgumentsContent() ?? '').join(' ')
    assert.match(volume, /\/app\/data/)
    assert.ok(runs(runtime).some((r) => /chown 1000:1000 \/app\/data/.test(r)))
  })

  it('stamps the four build args into ENV', () => {
    const args = properties(runtime, 'ARG')
    const env = properties(runtime, 'ENV')
    for (const name of STAMPS) {
      assert.ok(args.has(name), `ARG ${name}`)
      assert.equal(env.get(name), `\${${name}}`, `ENV ${name}=\${${name}}`)
    }
  })

  it('checks /api/health with node (no curl in slim images), stops on SIGTERM, and runs node as PID 1 with source maps', () => {
    const checks = keyword(runtime, 'HEALTHCHECK')
    assert.equal(checks.length, 1)
    const check = checks[0] as Healthcheck
    assert.equal(check.getSubcommand()?.getValue(), 'CMD')
    const content = check.getArgumentsContent() ?? ''
    const cmd = JSON.parse(content.slice(content.indexOf('['))) as string[]
    assert.equal(cmd.length, 3)
    assert.deepEqual(cmd.slice(0, 2), ['node', '-e'])
    assert.match(cmd[2]!, /fetch\('http:\/\/127\.0\.0\.1:'\+\(process\.env\.PORT\|\|3000\)\+'\/api\/health'\)/)
    assert.deepEqual(keyword(runtime, 'STOPSIGNAL').map((i) => i.getArgumentsContent()), ['SIGTERM'])
    const cmds = keyword(runtime, 'CMD')
    assert.equal(cmds.length, 1)
    assert.deepEqual(execForm(cmds[0]!), ['node', '--enable-source-maps', 'dist/main.js'])
    for (const script of ['start', 'cli', 'worker']) assert.match(packageJson.scripts[script] ?? '', /^exec node .*--enable-source-maps dist\//, script)
    assert.equal(keyword(runtime, 'ENTRYPOINT').length, 0)
  })

  it('.dockerignore keeps dependencies, build output, data and git history out of the context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    for (const entry of ['node_modules', 'dist', 'data', '.git', 'test-results', '.env']) assert.ok(ignored.includes(entry), entry)
    // What the build needs must not be ignored.
    for (const needed of ['src', 'scripts', 'content', 'package.json', 'package-lock.json', 'tsconfig.json']) assert.ok(!ignored.includes(needed), needed)
  })
})

// compose.yaml, parsed (no container engine runs here) and cross-checked against the service's settings:
// three instances behind nginx on PostgreSQL, Redis and Mailpit, each started only once what it needs is healthy.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { BlockList } from 'node:net'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parse } from 'yaml'
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.ts'
import { ROOT } from './dockerfile-stages.ts'

type Service = {
  image?: string, build?: unknown, command?: string[], ports?: string[], volumes?: string[], restart?: string,
  environment?: Record<string, string>, healthcheck?: { test?: string[], disable?: boolean },
  depends_on?: Record<string, { condition: string }>, networks?: string[] | Record<string, { ipv4_address?: string }>,
  stop_grace_period?: string,
}
type Compose = { services: Record<string, Service>, networks: Record<string, { ipam?: { config?: { subnet: string }[] } }> }

// `merge: true` resolves the `<<:` keys, as docker compose does.
const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as Compose
const { services } = compose
const APPS = ['app1', 'app2', 'app3']
const INFRA = ['postgres', 'redis', 'mailpit']

describe('compose.yaml', () => {
  it('has three app instances, nginx, PostgreSQL, Redis, Mailpit and a one-shot migration', () => {
    assert.deepEqual(Object.keys(services).sort(), [...APPS, 'mailpit', 'migrate', 'nginx', 'postgres', 'redis'].sort())
    assert.match(services.nginx!.image ?? '', /^nginx:/)
    assert.match(services.mailpit!.image ?? '', /^axllent\/mailpit:/)
    assert.match(services.postgres!.image ?? '', /^postgres:/)
    assert.match(services.redis!.image ?? '', /^redis:/)
    for (const name of [...APPS, 'migrate']) assert.ok(services[name]!.build, `${name} is built from the Dockerfile`)
  })

  it('pins every pulled image to an exact version (never latest, stable or a major alone)', () => {
    // name:[v]MAJOR.MINOR.PATCH, a variant after a dash, a digest optionally after it.
    const exact = /^[a-z0-9./-]+:v?\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?(@sha256:[0-9a-f]{64})?$/
    const pulled = Object.entries(services).filter(([, s]) => !s.build)
    assert.deepEqual(pulled.map(([n]) => n).sort(), [...INFRA, 'nginx'].sort())
    for (const [name, s] of pulled) assert.match(s.image ?? '', exact, `${name}: ${s.image}`)
    assert.doesNotMatch(services.mailpit!.image!, /:latest$/)
  })

  it('publishes ports on 127.0.0.1 only: Mailpit\'s inbox (no login: invitations, contacts) is never on the network', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const port of s.ports ?? []) assert.match(port, /^127\.0\.0\.1:\d+:\d+$/, `${name} publishes ${port}`)
    }
  })

  it('gives every app only settings the service reads, and a configuration the service accepts', () => {
    for (const name of [...APPS, 'migrate']) {
      const env = services[name]!.environment ?? {}
      for (const key of Object.keys(env)) assert.ok((CONFIG_VARIABLES as readonly string[]).includes(key), `${name}: ${key} is not a setting`)
      // The image's own ENV (Dockerfile) supplies HOST, PORT and DATA_DIR.
      const config = loadConfig({ HOST: '0.0.0.0', PORT: '3000', DATA_DIR: '/app/data', ...env })
      assert.equal(config.ambiente, 'producao')
      assert.equal(config.mailSandbox, false, 'production mail goes to Mailpit over SMTP')
      assert.match(config.databaseUrl ?? '', /@postgres:5432\//)
      assert.equal(config.redisUrl, 'redis://redis:6379')
      assert.equal(config.smtpUrl, 'smtp://mailpit:1025')
      assert.equal(config.publicUrl, 'http://localhost:8080')
    }
  })

  it('the apps log in as the runtime role; the owner\'s login reaches the one-shot migration alone', () => {
    for (const name of APPS) {
      const config = loadConfig({ PORT: '3000', ...services[name]!.environment })
      assert.equal(new URL(config.databaseUrl!).username, 'fct_servico', name)
      assert.equal(config.migrationDatabaseUrl, undefined, `${name} never holds the owner's login`)
    }
    const migrate = loadConfig({ PORT: '3000', ...services.migrate!.environment })
    assert.equal(new URL(migrate.migrationDatabaseUrl!).username, 'factoring')
    // The image's first start creates the runtime role's login, which the migrations then give its grants.
    assert.ok(services.postgres!.volumes!.includes('./deploy/postgres/roles.sql:/docker-entrypoint-initdb.d/10-roles.sql:ro'))
    assert.match(readFileSync(join(ROOT, 'deploy/postgres/roles.sql'), 'utf8'), /^CREATE ROLE fct_servico LOGIN PASSWORD 'servico-dev-only' NOSUPERUSER NOBYPASSRLS/m)
  })

  it('trusts X-Forwarded-For from nginx only, at its fixed address on the stack network', () => {
    const nginxNet = services.nginx!.networks as Record<string, { ipv4_address?: string }>
    const address = nginxNet.backend?.ipv4_address
    assert.ok(address, 'nginx has a fixed address')
    const [subnet, bits] = compose.networks.backend!.ipam!.config![0]!.subnet.split('/')
    const network = new BlockList()
    network.addSubnet(subnet!, Number(bits))
    assert.ok(network.check(address), `${address} lies in the stack network`)
    for (const name of APPS) {
      const config = loadConfig({ PORT: '3000', ...services[name]!.environment })
      assert.deepEqual(config.trustProxy, [address], `${name} trusts nginx and nothing else`)
    }
  })

  it('has a health check on every long-running service, the apps checking readiness', () => {
    for (const name of [...APPS, ...INFRA, 'nginx']) {
      const test = services[name]!.healthcheck?.test
      assert.ok(test && test.length > 1 && !services[name]!.healthcheck!.disable, `${name} has a health check`)
    }
    for (const name of APPS) assert.match(services[name]!.healthcheck!.test!.join(' '), /\/api\/health\/ready/)
    assert.match(services.nginx!.healthcheck!.test!.join(' '), /127\.0\.0\.1\/8080.*\/api\/health/)
  })

  it('starts the apps after the migration completed and the infrastructure is healthy, nginx after the apps', () => {
    const migrate = services.migrate!
    assert.deepEqual(migrate.command, ['node', '--enable-source-maps', 'dist/cli/main.js', 'migrate'])
    assert.equal(migrate.restart, 'no')
    assert.deepEqual(migrate.depends_on, { postgres: { condition: 'service_healthy' } })
    for (const name of APPS) {
      assert.deepEqual(services[name]!.depends_on, {
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        mailpit: { condition: 'service_healthy' },
      }, name)
      assert.equal(services[name]!.command, undefined, `${name} runs the image's CMD (node dist/main.js)`)
    }
    assert.deepEqual(services.nginx!.depends_on, Object.fromEntries(APPS.map((a) => [a, { condition: 'service_healthy' }])))
  })

  it('gives a stopping app more time than its own shutdown grace (10 s + SHUTDOWN_DELAY_MS)', () => {
    for (const name of APPS) {
      const seconds = Number(/^(\d+)s$/.exec(services[name]!.stop_grace_period ?? '')?.[1])
      const delayMs = loadConfig({ PORT: '3000', ...services[name]!.environment }).shutdownDelayMs
      assert.ok(seconds * 1000 > 10_000 + delayMs, `${name}: stop_grace_period ${services[name]!.stop_grace_period}`)
    }
  })

  it('publishes only nginx (8080) and the Mailpit inbox (8025), and mounts deploy/nginx.conf into nginx', () => {
    const published = Object.entries(services).filter(([, s]) => s.ports?.length).map(([n, s]) => `${n} ${s.ports!.join(',')}`)
    assert.deepEqual(published.sort(), ['mailpit 127.0.0.1:8025:8025', 'nginx 127.0.0.1:8080:8080'])
    assert.deepEqual(services.nginx!.volumes, ['./deploy/nginx.conf:/etc/nginx/nginx.conf:ro'])
  })
})

// deploy/kubernetes/: what `kubectl apply -k` would send (the resources, the generated ConfigMap) and the example
// Secrets, each checked strictly against its Kubernetes schema (types, required fields, and no field the schema
// lacks), then the properties that make a rollout safe: probes, the stop sequence, the security context, the
// release's migration Job and the pods' wait for it, the network policy, the spread, the connection budget.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { isIPv4 } from 'node:net'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parseAllDocuments } from 'yaml'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { Secret } from 'kubernetes-models/v1/Secret'
import { Service } from 'kubernetes-models/v1/Service'
import { Deployment } from 'kubernetes-models/apps/v1/Deployment'
import { Job } from 'kubernetes-models/batch/v1/Job'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler'
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy'
import type { IContainer, IPodSpec } from 'kubernetes-models/v1'
import { runCli } from '../../src/cli/commands.ts'
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.ts'
import { ROOT } from './dockerfile-stages.ts'
import { schemaViolations, type Manifest } from './strict-manifests.ts'

const DIR = join(ROOT, 'deploy/kubernetes')
const SHUTDOWN_GRACE_S = 10 // src/main.ts: the process's own limit for a stop
// PostgreSQL's defaults, which config.env's DATABASE_POOL_MAX is sized against.
const MAX_CONNECTIONS = 100
const SUPERUSER_RESERVED = 3
// Set in src/config.ts by the change that makes the pool size a setting (issue 17, item 6), made beside this
// one: accepted here by name until CONFIG_VARIABLES has it (then this list is dead and can go).

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap, 'v1/Secret': Secret, 'v1/Service': Service, 'apps/v1/Deployment': Deployment, 'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget, 'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
}

type Kustomization = {
  resources: string[]
  configMapGenerator: { name: string, envs?: string[], literals?: string[], options?: { disableNameSuffixHash?: boolean } }[]
  images: { name: string, newName: string, newTag: string }[]
}
const kustomization = parseAllDocuments(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as Kustomization

/** An env file as kustomize reads it: KEY=VALUE lines, `#` comments and blank lines skipped, the value verbatim. */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of readFileSync(join(DIR, file), 'utf8').split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue
    const at = line.indexOf('=')
    assert.ok(at > 0, `${file}: "${line}" is not KEY=VALUE`)
    out[line.slice(0, at).trim()] = line.slice(at + 1)
  }
  return out
}

// The example Secrets (the service's, and the schema owner's login for the migration Job alone) are not applied by
// `kubectl apply -k` (they would overwrite the real ones), but they are checked.
const EXAMPLE_SECRETS = ['secret.example.yaml', 'secret-migration.example.yaml']
const sources: { label: string, manifest: Manifest }[] = [...kustomization.resources, ...EXAMPLE_SECRETS].flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc, i) => {
    assert.deepEqual(doc.errors, [], file)
    return { label: `${file}#${i}`, manifest: doc.toJS() as Manifest }
  }))
for (const generator of kustomization.configMapGenerator) {
  const data = Object.assign({}, ...(generator.envs ?? []).map(envFile)) as Record<string, string>
  sources.push({ label: `configMapGenerator ${generator.name}`, manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data } })
}
const manifests = sources.map((s) => s.manifest)

const one = <T>(kind: string, name?: string) => {
  const found = manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name))
  assert.equal(found.length, 1, `one ${kind} ${name ?? ''}`)
  return found[0] as unknown as T
}
const deployment = one<Deployment>('Deployment')
const job = one<Job>('Job')
const configMap = one<ConfigMap>('ConfigMap')
const hpa = one<HorizontalPodAutoscaler>('HorizontalPodAutoscaler')
const secrets = manifests.filter((m) => m.kind === 'Secret') as unknown as Secret[]
const secretNamed = (name: string) => {
  const found = secrets.find((s) => s.metadata!.name === name)
  assert.ok(found, `no Secret ${name}`)
  return found
}
const secret = secretNamed('factoring-public-secrets')
const migrationSecret = secretNamed('factoring-public-migration')
const podOf = (o: Deployment | Job): IPodSpec => o.spec!.template.spec!
const app = podOf(deployment).containers[0]!
const waitStep = podOf(deployment).initContainers?.[0]

/** Every variable a container gets: its env, and the keys of the ConfigMap and Secrets it imports whole. */
function envOf(container: IContainer): Record<string, string> {
  const out: Record<string, string> = {}
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) { assert.equal(source.configMapRef.name, configMap.metadata!.name); Object.assign(out, configMap.data) }
    if (source.secretRef) Object.assign(out, secretNamed(source.secretRef.name ?? '').stringData)
  }
  for (const e of container.env ?? []) out[e.name] = e.value ?? ''
  return out
}

/** The port number of a URL setting, with its scheme's default. */
const portOf = (url: string, fallback: number) => Number(new URL(url).port || fallback)

describe('deploy/kubernetes', () => {
  it('applies every manifest but the example Secrets, and generates the ConfigMap from config.env', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && !EXAMPLE_SECRETS.includes(f)).sort()
    assert.deepEqual([...kustomization.resources].sort(), files)
    for (const example of EXAMPLE_SECRETS) assert.ok(!kustomization.resources.includes(example), 'apply -k must never replace a real Secret with placeholders')
    assert.deepEqual(manifests.map((m) => m.kind).sort(), ['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'Job', 'NetworkPolicy', 'NetworkPolicy',
      'PodDisruptionBudget', 'Secret', 'Secret', 'Service'])
    // The hash suffix is what rolls the pods on a change: never turned off.
    assert.deepEqual(kustomization.configMapGenerator.map((g) => [g.name, g.envs, g.options?.disableNameSuffixHash]),
      [['factoring-public', ['config.env'], undefined]])
  })

  it('every manifest conforms strictly to its Kubernetes schema: types, required fields, and no unknown field', () => {
    for (const m of manifests) {
      const Model = MODELS[`${m.apiVersion}/${m.kind}`]
      assert.ok(Model, `no schema for ${m.apiVersion} ${m.kind}`)
      assert.doesNotThrow(() => new Model(m as never).validate(), `${m.kind} ${m.metadata.name}`)
    }
    assert.deepEqual(schemaViolations(sources), [])
  })

  it('the schemas really are checked: a misspelt field anywhere, or a wrongly typed one, is refused', () => {
    const misspelt = structuredClone(deployment) as unknown as { spec: { template: { spec: Record<string, unknown> } } }
    const pod = misspelt.spec.template.spec
    pod.topologySpreadConstrains = pod.topologySpreadConstraints
    delete pod.topologySpreadConstraints
    const nested = structuredClone(deployment) as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } }
    nested.spec.template.spec.containers[0]!.readinesProbe = {}
    const violations = schemaViolations([
      { label: 'misspelt', manifest: misspelt as unknown as Manifest },
      { label: 'nested', manifest: nested as unknown as Manifest },
    ])
    assert.equal(violations.length, 2, violations.join('\n'))
    assert.match(violations[0]!, /^misspelt: .*'"?topologySpreadConstrains"?' does not exist in type 'IPodSpec'/)
    assert.match(violations[1]!, /^nested: .*'"?readinesProbe"?' does not exist in type 'IContainer'/)
    const broken = structuredClone(deployment) as unknown as { spec: { minReadySeconds: unknown } }
    broken.spec.minReadySeconds = 'ten'
    assert.throws(() => new Deployment(broken as never).validate(), /minReadySeconds/)
  })

  it('probes liveness on /api/health, readiness on /api/health/ready, with a startup probe, on the http port 3000', () => {
    const http = app.ports!.find((p) => p.name === 'http')
    assert.equal(http?.containerPort, 3000)
    assert.equal(loadConfig(envOf(app)).port, 3000)
    assert.deepEqual(app.livenessProbe?.httpGet, { path: '/api/health', port: 'http' })
    assert.deepEqual(app.readinessProbe?.httpGet, { path: '/api/health/ready', port: 'http' })
    assert.deepEqual(app.startupProbe?.httpGet, { path: '/api/health', port: 'http' })
    assert.ok(app.resources?.requests?.cpu && app.resources.requests.memory && app.resources.limits?.memory)
    assert.equal(app.command, undefined, 'the image\'s CMD (node --enable-source-maps dist/main.js)')
  })

  it('stops gracefully: a preStop pause, then more grace than the pause, the drain delay and the 10 s shutdown', () => {
    const command = app.lifecycle?.preStop?.exec?.command ?? []
    assert.equal(command[0], '/bin/sleep')
    const pause = Number(command[1])
    assert.ok(pause > 0 && command.length === 2, command.join(' '))
    const delayS = loadConfig(envOf(app)).shutdownDelayMs / 1000
    const grace = podOf(deployment).terminationGracePeriodSeconds ?? 30
    assert.ok(grace > pause + delayS + SHUTDOWN_GRACE_S, `grace ${grace}s vs ${pause}s + ${delayS}s + ${SHUTDOWN_GRACE_S}s`)
  })

  it('runs non-root on a read-only root filesystem, DATA_DIR and /tmp on emptyDirs, no privilege escalation, no capability', () => {
    for (const workload of [deployment, job]) {
      const pod = podOf(workload)
      assert.equal(pod.securityContext?.runAsNonRoot, true)
      assert.ok((pod.securityContext?.runAsUser ?? 0) > 0)
      for (const c of [...pod.initContainers ?? [], ...pod.containers]) {
        assert.equal(c.securityContext?.readOnlyRootFilesystem, true, c.name)
        assert.equal(c.securityContext?.allowPrivilegeEscalation, false, c.name)
        assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL'], c.name)
        const emptyDirs = new Set((pod.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name))
        const writable = (c.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name)).map((m) => m.mountPath)
        assert.ok(writable.includes('/tmp'), `${c.name}: /tmp is writable`)
      }
    }
    const writable = (app.volumeMounts ?? []).map((m) => m.mountPath)
    assert.ok(writable.includes(loadConfig(envOf(app)).dataDir), 'DATA_DIR is a mounted emptyDir')
  })

  it('gives each release its own migration Job, named by the image tag, which a configuration change never touches', () => {
    const pod = podOf(job)
    assert.equal(pod.restartPolicy, 'Never')
    assert.deepEqual(pod.containers[0]!.command, ['node', '--enable-source-maps', 'dist/cli/main.js', 'migrate'])
    assert.equal(pod.containers[0]!.image, app.image)
    const [image] = kustomization.images
    assert.equal(image?.name, app.image)
    assert.equal(job.metadata!.name, `factoring-public-migrate-${image!.newTag}`, 'a new release is a new Job (its template cannot change)')
    // The name becomes the pods' job-name label: a DNS subdomain that is also a label value (63 characters).
    assert.match(job.metadata!.name!, /^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/, 'a tag that makes a valid Job name')
    assert.ok((job.spec!.ttlSecondsAfterFinished ?? 0) > 0, 'finished Jobs are removed')
    assert.ok(!(pod.containers[0]!.envFrom ?? []).some((s) => s.configMapRef), 'the generated ConfigMap\'s new name would change the Job\'s template')
  })

  it('has no replica count of its own (the autoscaler\'s), and its pods wait for the schema rather than fail to start', async () => {
    assert.equal(deployment.spec!.replicas, undefined)
    assert.ok(waitStep, 'an init step')
    assert.equal(podOf(deployment).initContainers!.length, 1)
    assert.equal(waitStep.image, app.image)
    assert.deepEqual(waitStep.command?.slice(0, 4), ['node', '--enable-source-maps', 'dist/cli/main.js', 'wait-for-schema'])
    // The same login as the server (the runtime role, which may not migrate), so it checks what the server will.
    assert.deepEqual(waitStep.envFrom, app.envFrom)
    // The CLI has the command and takes these options: with a bad --interval added it refuses the option, not the command.
    const lines: string[] = []
    const out = { log: (s: string) => lines.push(s), error: (s: string) => lines.push(s) }
    const code = await runCli([...waitStep.command!.slice(3), '--interval', 'soon'], out, {}, { open: () => assert.fail('must not open') })
    assert.equal(code, 2, lines.join('\n'))
    assert.match(lines.join('\n'), /--interval must be a number of seconds, not "soon"/)
    const timeoutS = Number(waitStep.command![waitStep.command!.indexOf('--timeout') + 1])
    assert.ok(timeoutS >= 60, `waits ${timeoutS} s for the migration Job`)
  })

  it('gives containers only settings the service reads, which it accepts as a production configuration', () => {
    for (const c of [app, waitStep!, ...podOf(job).containers]) {
      const env = envOf(c)
      for (const key of Object.keys(env)) {
        assert.ok((CONFIG_VARIABLES as readonly string[]).includes(key), `${c.name}: ${key} is not a setting`)
      }
      const config = loadConfig(env)
      assert.equal(config.ambiente, 'producao')
      assert.ok(config.databaseUrl && config.redisUrl && config.smtpUrl)
    }
    // Credentials live in the Secrets, and their values are visibly placeholders.
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) {
      assert.ok(!(key in (configMap.data ?? {})), `${key} is not in the ConfigMap`)
      assert.match(secret.stringData?.[key] ?? '', /CHANGE-ME/, `${key} is a placeholder`)
    }
    assert.match(migrationSecret.stringData?.MIGRATION_DATABASE_URL ?? '', /CHANGE-ME/)
  })

  it('the schema owner\'s login reaches the migration Job alone; the serving pods log in as the runtime role', () => {
    assert.ok(loadConfig(envOf(podOf(job).containers[0]!)).migrationDatabaseUrl, 'the Job migrates as the owner')
    for (const c of [app, waitStep!]) {
      assert.equal(loadConfig(envOf(c)).migrationDatabaseUrl, undefined, `${c.name} never holds the owner's login`)
      assert.equal(new URL(loadConfig(envOf(c)).databaseUrl!).username, 'fct_servico')
    }
    assert.notEqual(new URL(loadConfig(envOf(podOf(job).containers[0]!)).migrationDatabaseUrl!).username, 'fct_servico')
  })

  it('believes X-Forwarded-For from a narrow range only, never a /8', () => {
    const ranges = loadConfig(envOf(app)).trustProxy
    assert.ok(ranges.length > 0)
    for (const range of ranges) {
      const [address, bits] = range.split('/')
      const prefix = bits === undefined ? (isIPv4(address!) ? 32 : 128) : Number(bits)
      assert.ok(prefix >= (isIPv4(address!) ? 24 : 112), `TRUST_PROXY ${range} is too broad`)
    }
  })

  it('sizes the pool so the most pods a rollout can run stay within PostgreSQL\'s max_connections', () => {
    const pool = Number(configMap.data?.DATABASE_POOL_MAX)
    assert.ok(Number.isInteger(pool) && pool > 0, `DATABASE_POOL_MAX ${configMap.data?.DATABASE_POOL_MAX}`)
    const surge = Number(deployment.spec!.strategy?.rollingUpdate?.maxSurge)
    assert.ok(Number.isInteger(surge), 'maxSurge is a number of pods')
    // Each pod: its pool and its LISTEN session; each surging pod's init step one more; the migration Job one.
    const most = (hpa.spec!.maxReplicas + surge) * (pool + 1) + surge + 1
    assert.ok(most <= MAX_CONNECTIONS - SUPERUSER_RESERVED, `${most} connections at most`)
    const arithmetic = `maxReplicas ${hpa.spec!.maxReplicas} \\+ maxSurge ${surge}\\) x \\(DATABASE_POOL_MAX ${pool} \\+ 1\\)`
    assert.match(readFileSync(join(DIR, 'config.env'), 'utf8'), new RegExp(arithmetic), 'the comment\'s arithmetic is the manifests\' numbers')
  })

  it('spreads the pods over zones and nodes, counting within one rollout', () => {
    const labels = deployment.spec!.template.metadata!.labels!
    const spread = podOf(deployment).topologySpreadConstraints ?? []
    assert.deepEqual(spread.map((c) => c.topologyKey).sort(), ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'])
    for (const c of spread) {
      assert.equal(c.maxSkew, 1)
      assert.deepEqual(c.labelSelector?.matchLabels, labels)
      assert.deepEqual(c.matchLabelKeys, ['pod-template-hash'])
    }
  })

  it('lets in only the service and metrics ports, and out only to PostgreSQL, Redis, SMTP and DNS', () => {
    const policy = one<NetworkPolicy>('NetworkPolicy', 'factoring-public')
    assert.deepEqual(policy.spec!.podSelector.matchLabels, deployment.spec!.template.metadata!.labels)
    assert.deepEqual(policy.spec!.policyTypes, ['Ingress', 'Egress'])
    const inPorts = (policy.spec!.ingress ?? []).flatMap((r) => (r.ports ?? []).map((p) => p.port))
    assert.deepEqual(inPorts.sort(), ['http', 'metrics'])
    for (const rule of policy.spec!.ingress ?? []) assert.ok(rule.from?.length, 'each ingress rule names who may come in')
    const named = (name: string) => app.ports!.find((p) => p.name === name)?.containerPort
    assert.equal(named('http'), loadConfig(envOf(app)).port)
    assert.equal(named('metrics'), loadConfig(envOf(app)).metricsPort)

    const config = loadConfig(envOf(app))
    const expected = [portOf(config.databaseUrl!, 5432), portOf(config.redisUrl!, 6379), portOf(config.smtpUrl!, 587), 53, 53].sort()
    const outPorts = (policy.spec!.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => Number(p.port)))
    assert.deepEqual(outPorts.sort(), expected)
    const dns = (policy.spec!.egress ?? []).find((r) => r.ports?.some((p) => p.port === 53))
    assert.deepEqual(dns?.ports?.map((p) => p.protocol).sort(), ['TCP', 'UDP'])

    const migration = one<NetworkPolicy>('NetworkPolicy', 'factoring-public-migrate')
    assert.deepEqual(migration.spec!.podSelector.matchLabels, job.spec!.template.metadata!.labels)
    assert.deepEqual(migration.spec!.ingress ?? [], [], 'nothing comes in')
    const jobConfig = loadConfig(envOf(podOf(job).containers[0]!))
    const jobOut = (migration.spec!.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => Number(p.port)))
    assert.deepEqual(jobOut.sort(), [portOf(jobConfig.migrationDatabaseUrl!, 5432), 53, 53].sort())
    // The database rule of both names the same peer.
    const dbPeer = (p: NetworkPolicy) => (p.spec!.egress ?? []).find((r) => r.ports?.some((x) => x.port === 5432))?.to
    assert.deepEqual(dbPeer(migration), dbPeer(policy))
    assert.ok(dbPeer(policy)!.every((p) => p.ipBlock?.cidr.endsWith('/32') || p.namespaceSelector), 'the database is one address or a namespace')
  })

  it('selects the pods from the Service, the PodDisruptionBudget and the autoscaler, and exposes metrics for scraping', () => {
    const labels = deployment.spec!.template.metadata!.labels!
    assert.deepEqual(deployment.spec!.selector.matchLabels, labels)
    assert.deepEqual(one<Service>('Service').spec!.selector, labels)
    assert.deepEqual(one<PodDisruptionBudget>('PodDisruptionBudget').spec!.selector!.matchLabels, labels)
    assert.deepEqual(hpa.spec!.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata!.name })
    assert.ok(hpa.spec!.minReplicas! >= 2)
    const metricsPort = loadConfig(envOf(app)).metricsPort
    const annotations = deployment.spec!.template.metadata!.annotations ?? {}
    assert.equal(annotations['prometheus.io/scrape'], 'true')
    assert.equal(Number(annotations['prometheus.io/port']), metricsPort)
    assert.ok(app.ports!.some((p) => p.containerPort === metricsPort))
  })
})

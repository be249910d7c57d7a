// deploy/kubernetes/: every manifest validated against its Kubernetes schema (kubernetes-models), then the
// properties that make a rollout safe: probes, the stop sequence, the security context, the migration Job.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
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
import type { IContainer, IPodSpec } from 'kubernetes-models/v1'
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.ts'
import { ROOT } from './dockerfile-stages.ts'

const DIR = join(ROOT, 'deploy/kubernetes')
const SHUTDOWN_GRACE_S = 10 // src/main.ts: the process's own limit for a stop

type Manifest = { apiVersion: string, kind: string, metadata: { name: string }, [key: string]: unknown }
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap, 'v1/Secret': Secret, 'v1/Service': Service, 'apps/v1/Deployment': Deployment, 'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget, 'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
}

const kustomization = parseAllDocuments(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as { resources: string[] }
// The example Secrets (the service's, and the schema owner's login for the migration Job alone) are not applied by
// `kubectl apply -k` (they would overwrite the real ones), but they are checked.
const EXAMPLE_SECRETS = ['secret.example.yaml', 'secret-migration.example.yaml']
const manifests: Manifest[] = [...kustomization.resources, ...EXAMPLE_SECRETS].flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc) => {
    assert.deepEqual(doc.errors, [], file)
    return doc.toJS() as Manifest
  }))
const one = <T>(kind: string) => {
  const found = manifests.filter((m) => m.kind === kind)
  assert.equal(found.length, 1, `one ${kind}`)
  return found[0] as unknown as T
}
const deployment = one<Deployment>('Deployment')
const job = one<Job>('Job')
const configMap = one<ConfigMap>('ConfigMap')
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

describe('deploy/kubernetes', () => {
  it('lists every manifest but the example Secrets in kustomization.yaml, and each is valid against its Kubernetes schema', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && !EXAMPLE_SECRETS.includes(f)).sort()
    assert.deepEqual([...kustomization.resources].sort(), files)
    for (const example of EXAMPLE_SECRETS) assert.ok(!kustomization.resources.includes(example), 'apply -k must never replace a real Secret with placeholders')
    assert.deepEqual(manifests.map((m) => m.kind).sort(),
      ['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'Job', 'PodDisruptionBudget', 'Secret', 'Secret', 'Service'])
    for (const m of manifests) {
      const Model = MODELS[`${m.apiVersion}/${m.kind}`]
      assert.ok(Model, `no schema for ${m.apiVersion} ${m.kind}`)
      assert.doesNotThrow(() => new Model(m as never).validate(), `${m.kind} ${m.metadata.name}`)
    }
  })

  it('the schemas really are checked: a wrongly typed field is refused', () => {
    const broken = structuredClone(deployment) as unknown as { spec: { replicas: unknown } }
    broken.spec.replicas = 'three'
    assert.throws(() => new Deployment(broken as never).validate(), /replicas/)
  })

  it('probes liveness on /api/health, readiness on /api/health/ready, with a startup probe, on the http port 3000', () => {
    const http = app.ports!.find((p) => p.name === 'http')
    assert.equal(http?.containerPort, 3000)
    assert.equal(loadConfig(envOf(app)).port, 3000)
    assert.deepEqual(app.livenessProbe?.httpGet, { path: '/api/health', port: 'http' })
    assert.deepEqual(app.readinessProbe?.httpGet, { path: '/api/health/ready', port: 'http' })
    assert.deepEqual(app.startupProbe?.httpGet, { path: '/api/health', port: 'http' })
    assert.ok(app.resources?.requests?.cpu && app.resources.requests.memory && app.resources.limits?.memory)
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
      for (const c of pod.containers) {
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

  it('migrates with the CLI in a Job that never restarts in place', () => {
    const pod = podOf(job)
    assert.equal(pod.restartPolicy, 'Never')
    assert.deepEqual(pod.containers[0]!.command, ['node', 'dist/cli/main.js', 'migrate'])
    assert.equal(pod.containers[0]!.image, app.image)
  })

  it('gives containers only settings the service reads, which it accepts as a production configuration', () => {
    for (const c of [app, ...podOf(job).containers]) {
      const env = envOf(c)
      for (const key of Object.keys(env)) assert.ok((CONFIG_VARIABLES as readonly string[]).includes(key), `${c.name}: ${key} is not a setting`)
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
    assert.equal(loadConfig(envOf(app)).migrationDatabaseUrl, undefined, 'a serving pod never holds the owner\'s login')
    assert.equal(new URL(loadConfig(envOf(app)).databaseUrl!).username, 'fct_servico')
    assert.notEqual(new URL(loadConfig(envOf(podOf(job).containers[0]!)).migrationDatabaseUrl!).username, 'fct_servico')
  })

  it('selects the pods from the Service, the PodDisruptionBudget and the autoscaler, and exposes metrics for scraping', () => {
    const labels = deployment.spec!.template.metadata!.labels!
    assert.deepEqual(deployment.spec!.selector.matchLabels, labels)
    assert.deepEqual(one<Service>('Service').spec!.selector, labels)
    assert.deepEqual(one<PodDisruptionBudget>('PodDisruptionBudget').spec!.selector!.matchLabels, labels)
    const hpa = one<HorizontalPodAutoscaler>('HorizontalPodAutoscaler')
    assert.deepEqual(hpa.spec!.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata!.name })
    assert.ok(hpa.spec!.minReplicas! >= 2)
    const metricsPort = loadConfig(envOf(app)).metricsPort
    const annotations = deployment.spec!.template.metadata!.annotations ?? {}
    assert.equal(annotations['prometheus.io/scrape'], 'true')
    assert.equal(Number(annotations['prometheus.io/port']), metricsPort)
    assert.ok(app.ports!.some((p) => p.containerPort === metricsPort))
  })
})

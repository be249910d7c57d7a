// Reading what a METRICS_PORT answers: the Prometheus text exposition format as prom-client writes it
// (`# HELP`, `# TYPE`, then `name{label="value",…} number` lines), for the metrics and alert-rule tests.
import assert from 'node:assert/strict'

export type Sample = { name: string, labels: Record<string, string>, value: number }
export type Exposition = { samples: Sample[], types: Map<string, string> }

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (\w+)$/.exec(line)
    if (type) types.set(type[1]!, type[2]!)
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) continue
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]))
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return { samples, types }
}

/** The value of the sample `name{labels}` (labels a subset of the sample's), or undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samplesOf(text, name, labels)[0]?.value
}

/** Every sample of `name` whose labels include `labels`. */
export function samplesOf(text: string, name: string, labels: Record<string, string> = {}): Sample[] {
  return parseExposition(text).samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}

export async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/)
  return res.text()
}

// The example alert rules (deploy/prometheus/alerts.yaml) parse, and every metric and label their expressions
// name is one a running instance exposes on METRICS_PORT: a renamed metric or label fails here, not silently in
// a Prometheus that never fires (promtool is not available to check them).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { before, describe, it } from 'node:test'
import { parse } from 'yaml'
import { contactBody } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { freePort } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'
import { parseExposition, sample, scrape, type Exposition } from './exposition.ts'

const RULES = join(import.meta.dirname, '../../../deploy/prometheus/alerts.yaml')

type Rule = { alert?: string, record?: string, expr: string, for?: string, labels?: Record<string, string>, annotations?: Record<string, string> }
type RuleFile = { groups: { name: string, rules: Rule[] }[] }

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan'])

/** The metric names of a PromQL expression, and the label names each selector matches on. */
function selectorsOf(expr: string): { metrics: Set<string>, labels: [string, string][] } {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""')
  const labels: [string, string][] = []
  for (const m of noStrings.matchAll(/([a-zA-Z_:][\w:]*)\s*\{([^}]*)\}/g)) {
    for (const l of m[2]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)) labels.push([m[1]!, l[1]!])
  }
  const bare = noStrings
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const metrics = new Set<string>()
  for (const m of bare.matchAll(/[a-zA-Z_:][\w:]*/g)) {
    // Before "(" it is a function.
    if (/^\s*\(/.test(bare.slice(m.index + m[0].length)) || KEYWORDS.has(m[0].toLowerCase())) continue
    if (m.index > 0 && /[\w.]/.test(bare[m.index - 1]!)) continue // the tail of a number such as 1e3
    metrics.add(m[0])
  }
  return { metrics, labels }
}

/** Every name a scrape can answer: the samples', the declared families', and a histogram's three series. */
function exposedNames(exp: Exposition): Set<string> {
  const names = new Set(exp.samples.map((s) => s.name))
  for (const [name, type] of exp.types) {
    names.add(name)
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix)
  }
  return names
}

describe('the example Prometheus alert rules', () => {
  const file = parse(readFileSync(RULES, 'utf8')) as RuleFile
  const rules = file.groups.flatMap((g) => g.rules)

  it('are a rule file of named groups whose alerts each have an expression, a severity and a summary', () => {
    assert.ok(file.groups.length > 0)
    for (const g of file.groups) assert.match(g.name, /\S/)
    const names = rules.map((r) => r.alert)
    assert.equal(new Set(names).size, names.length, 'alert names are unique')
    for (const r of rules) {
      assert.ok(r.alert, `an alert (no recording rules here): ${JSON.stringify(r)}`)
      assert.equal(typeof r.expr, 'string')
      if (r.for !== undefined) assert.match(r.for, /^\d+[smhd]$/, `${r.alert}: for`)
      assert.match(r.labels?.severity ?? '', /^(critical|warning)$/, `${r.alert}: severity`)
      assert.match(r.annotations?.summary ?? '', /\S/, `${r.alert}: summary`)
      // Balanced brackets: a cut expression is the commonest YAML slip.
      for (const [open, close] of [['(', ')'], ['{', '}'], ['[', ']']] as const) {
        assert.equal(r.expr.split(open).length, r.expr.split(close).length, `${r.alert}: ${open}${close} balanced`)
      }
    }
  })

  it('cover readiness, the 5xx rate, the mail queue\'s age and delivery failures', () => {
    const used = new Set(rules.flatMap((r) => [...selectorsOf(r.expr).metrics]))
    for (const name of ['dependency_up', 'http_request_duration_seconds_count', 'mail_outbox_oldest_age_seconds', 'mail_delivery_attempts_total']) {
      assert.ok(used.has(name), `a rule on ${name}`)
    }
    assert.ok(rules.some((r) => /status_code=~"5\.\."/.test(r.expr)), 'a rule on the 5xx answers')
  })

  it('the expression reader finds metric names and skips functions, keywords, labels and ranges', () => {
    const { metrics, labels } = selectorsOf('sum by (job) (rate(a_total{x="y", le=~"1e3"}[5m])) / on(instance) group_left(v) b > 1e3 and absent(c_d{z!="w"})')
    assert.deepEqual([...metrics].sort(), ['a_total', 'b', 'c_d'])
    assert.deepEqual(labels, [['a_total', 'x'], ['a_total', 'le'], ['c_d', 'z']])
  })

  describe('against a running instance', () => {
    let port: number
    before(async () => { port = await freePort() })
    // The worker delivers to the sandbox: the delivery counter and its labels appear in the scrape.
    const ctx = useTestApp(() => ({ env: { METRICS_PORT: String(port), MAIL_POLL_MS: '100' }, listen: true }))

    it('every metric and label the rules use is exposed', async () => {
      assert.equal((await fetch(`${ctx.base}/api/health/ready`)).status, 200)
      assert.equal((await fetch(`${ctx.base}/api/site/contato`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
      })).status, 202)
      const text = await until('a delivery counted', async () => {
        const t = await scrape(port)
        return sample(t, 'mail_delivery_attempts_total') !== undefined && sample(t, 'dependency_up') !== undefined ? t : undefined
      })
      const exposition = parseExposition(text)
      const names = exposedNames(exposition)
      for (const r of rules) {
        const { metrics, labels } = selectorsOf(r.expr)
        assert.ok(metrics.size > 0, `${r.alert}: names a metric`)
        for (const m of metrics) assert.ok(names.has(m), `${r.alert}: ${m} is not exposed by the service`)
        for (const [metric, label] of labels) {
          const series = exposition.samples.filter((s) => s.name === metric)
          assert.ok(series.length > 0, `${r.alert}: ${metric} has samples to check its labels on`)
          assert.ok(series.some((s) => label in s.labels), `${r.alert}: ${metric} has no label ${label}`)
        }
      }
    })
  })
})

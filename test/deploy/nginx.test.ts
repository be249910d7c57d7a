// deploy/nginx.conf never writes a query string into its access log: an invitation's link carries its secret there
// (/conta/ativar?convite=fct_inv_…), and whoever reads the proxy's logs could activate the account first. Checked
// in the file, and, where nginx is installed (CI installs it), on a real nginx in front of a tiny upstream.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { NGINX_CONF, privateNginxConf } from '../../test-scale/stack.ts'
import { defer } from '../helpers/fixture.ts'
import { freePort } from '../helpers/smtp.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

const SHIPPED = readFileSync(NGINX_CONF, 'utf8')
/** nginx variables that hold the query string, or a line that includes it. */
const QUERY_VARIABLES = /\$(request_uri|request|args|query_string|arg_\w+|is_args)\b/

const nginxPath = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p))

/** Each directive of the file, comments removed, as one line (log_format spans several). */
function directives(conf: string, name: string): string[] {
  const text = conf.replace(/#[^\n]*/g, '')
  return [...text.matchAll(new RegExp(`(?:^|[;{}\\s])${name}\\s([^;]*);`, 'g'))].map((m) => m[1]!.replace(/\s+/g, ' '))
}

describe('deploy/nginx.conf access log', () => {
  it('every log format leaves the query string out, and every access log uses one of them', () => {
    const formats = directives(SHIPPED, 'log_format')
    assert.ok(formats.length > 0, 'a log format is declared')
    for (const format of formats) assert.doesNotMatch(format, QUERY_VARIABLES, format)
    const names = formats.map((f) => f.split(' ')[0])
    const logs = directives(SHIPPED, 'access_log')
    assert.ok(logs.length > 0)
    // Without a format name nginx uses "combined", whose $request is the request line, query included.
    for (const log of logs) assert.ok(log === 'off' || names.includes(log.split(' ')[1]), `access_log ${log} names a format of this file`)
    // A map that feeds a log format must not hand it the query either.
    for (const map of SHIPPED.matchAll(/map \$(\w+) \$(\w+) \{([^}]*)\}/g)) {
      if (formats.some((f) => f.includes(`$${map[2]}`)) && QUERY_VARIABLES.test(`$${map[1]}`)) {
        assert.match(map[3]!, /\[\^\?\]/, `map $${map[1]} → $${map[2]} keeps only what precedes "?"`)
      }
    }
  })

  it('a real nginx logs an activation link\'s path without its secret', { skip: nginxPath ? false : 'nginx is not installed' }, async (t) => {
    const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'))
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
    defer(t, () => new Promise((r) => upstream.close(r)))

    const dir = tempDir('nginx')
    const prefix = join(dir, 'prefix')
    mkdirSync(prefix)
    const port = await freePort()
    const conf = join(dir, 'nginx.conf')
    writeFileSync(conf, privateNginxConf(SHIPPED, port, [(upstream.address() as AddressInfo).port], prefix))
    const nginx = spawn(nginxPath!, ['-p', prefix, '-c', conf, '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} notice;`],
      { stdio: 'ignore' })
    defer(t, async () => {
      if (nginx.exitCode !== null || nginx.signalCode !== null) return
      // SIGTERM: the master stops its workers (a killed master would leave them behind).
      const exited = new Promise((r) => nginx.once('exit', r))
      nginx.kill('SIGTERM')
      await exited
    })

    const secret = 'fct_inv_SECRET0123456789abcdefghijklmnop'
    const res = await until('nginx answers', async () => {
      try { return await fetch(`http://127.0.0.1:${port}/conta/ativar?convite=${secret}`) } catch { return undefined }
    })
    assert.equal(res.status, 200)
    const log = join(prefix, 'access.log')
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [])
    const line = await until('the access log line', () => lines().find((l) => l.includes('/conta/ativar')))
    const entry = JSON.parse(line) as Record<string, unknown>
    assert.equal(Object.values(entry).find((v) => String(v).startsWith('/conta/ativar')), '/conta/ativar', line)
    assert.ok(!line.includes('SECRET') && !line.includes('convite'), line)
  })
})

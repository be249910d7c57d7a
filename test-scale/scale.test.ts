// Scale-out as an operator deploys it: three built instances on one PostgreSQL and one Redis behind Debian's nginx
// running deploy/nginx.conf. Per-IP budgets are global and exact, X-Forwarded-For cannot move a client to another
// budget, every accepted contact is e-mailed exactly once, and SIGTERM to one instance under load costs no client an
// error and ends the instance with exit 0, trial after trial, whatever nginx does with its kept-alive connections.
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { answered, halfSentContact, keepAliveLoad, refusesConnections, STOPPING_ERRORS } from '../test/helpers/keep-alive-load.ts'
import { until } from '../test/helpers/wait.ts'
import { call, contact, postContact, type Answer } from './client.ts'
import { startStack, type Stack } from './stack.ts'

const CONTACT = { max: 3, windowSeconds: 600 }
const READ = { max: 10, windowSeconds: 600 }
/** After SIGTERM the instance keeps serving this long with readiness 503, as behind a probing balancer. */
const SHUTDOWN_DELAY_MS = 1000
/** Exempt from the budgets: the keep-alive loops of the SIGTERM trials (each of their connections from one of these). */
const UNLIMITED = '127.40.0.0/16'

let stack: Stack
let lb: number
/** Every protocolo the service accepted, to be found exactly once on the SMTP server. */
const accepted = new Set<string>()

before(async () => {
  stack = await startStack({
    instances: 3,
    rateLimits: { contato: CONTACT, leitura: READ },
    env: { SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS), RATE_LIMIT_ALLOWLIST: UNLIMITED },
  })
  lb = stack.lb.port
})
after(async () => {
  await stack?.stop()
})

function assertLimited(a: Answer, windowSeconds: number, what: string): void {
  assert.equal(a.status, 429, `${what}: ${a.status} ${a.body}`)
  assert.equal(JSON.parse(a.body).detail, 'limite_de_requisicoes')
  const retryAfter = String(a.headers['retry-after'])
  assert.match(retryAfter, /^\d+$/, `${what}: Retry-After is whole seconds`)
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= windowSeconds, `${what}: Retry-After ${retryAfter} within the ${windowSeconds} s window`)
}

function keep(a: Answer): void {
  const { protocolo } = JSON.parse(a.body) as { protocolo: string }
  assert.ok(protocolo, a.body)
  accepted.add(protocolo)
}

/**
 * The instances whose log holds a request with one of these ids, once every id is in some log: the instances
 * write their log in batches at most a quarter second late (src/platform/lib/logging.ts), so the lines trail the answers.
 */
async function servedBy(ids: string[]): Promise<number[]> {
  const logged = (id: string) => stack.instances.some((s) => s.output().includes(`"reqId":"${id}"`))
  await until(`a log line for each of ${ids.length} requests`, () => ids.every(logged), 5000)
  return stack.instances.flatMap((s, i) => ids.some((id) => s.output().includes(`"reqId":"${id}"`)) ? [i] : [])
}

describe('three instances behind nginx', () => {
  it('the contact budget is global and exact: N of 3N from one IP, across instances; a second IP has its own N', async () => {
    for (const ip of ['127.10.0.1', '127.10.0.2']) {
      const ids = Array.from({ length: 3 * CONTACT.max }, (_, i) => `scale-contato-${ip}-${i}`)
      const answers = await Promise.all(ids.map((id) => postContact(lb, ip, id)))
      const ok = answers.filter((a) => a.status === 202)
      assert.equal(ok.length, CONTACT.max, `${ip}: ${answers.map((a) => a.status).join(' ')}`)
      ok.forEach(keep)
      for (const a of answers.filter((x) => x.status !== 202)) assertLimited(a, CONTACT.windowSeconds, ip)
      const servers = await servedBy(ids)
      assert.ok(servers.length > 1, `${ip}: the ${ids.length} posts reached more than one instance (${servers})`)
    }
  })

  it('the read budget is global and exact too, per IP', async () => {
    for (const ip of ['127.11.0.1', '127.11.0.2']) {
      const ids = Array.from({ length: 3 * READ.max }, (_, i) => `scale-leitura-${ip}-${i}`)
      // /api/version, not a probe: a successful probe is logged at debug only, and the instances' logs say who served what.
      const answers = await Promise.all(ids.map((id) => call(lb, { path: '/api/version', from: ip, headers: { 'x-request-id': id } })))
      assert.equal(answers.filter((a) => a.status === 200).length, READ.max, `${ip}: ${answers.map((a) => a.status).join(' ')}`)
      for (const a of answers.filter((x) => x.status !== 200)) assertLimited(a, READ.windowSeconds, ip)
      const servers = await servedBy(ids)
      assert.ok(servers.length > 1, `${ip}: the reads reached more than one instance (${servers})`)
    }
  })

  it('a client cannot leave its budget with its own X-Forwarded-For (one value, several, garbage)', async () => {
    const ip = '127.12.0.1'
    for (let i = 0; i < CONTACT.max; i++) {
      const a = await postContact(lb, ip, `scale-xff-${i}`)
      assert.equal(a.status, 202, a.body)
      keep(a)
    }
    const forged = ['203.0.113.7', '203.0.113.8, 198.51.100.2', '127.0.0.1', '198.51.100.3, 127.0.0.1', 'garbage', 'x, , ;;, 999.1.1.1', '']
    for (const [i, xff] of forged.entries()) {
      assertLimited(await postContact(lb, ip, `scale-xff-forged-${i}`, { 'x-forwarded-for': xff }), CONTACT.windowSeconds, `X-Forwarded-For "${xff}"`)
    }
    // Nor can another client spend (or borrow) this one's budget by naming its address.
    const other = await postContact(lb, '127.12.0.2', 'scale-xff-other', { 'x-forwarded-for': ip })
    assert.equal(other.status, 202, other.body)
    keep(other)
  })

  it('SIGTERM to one instance under load: no client error, readiness 503 at once, in-flight finishes, exit 0 within 10 s', async () => {
    const victim = stack.instances[1]!
    // A slow SMTP answer keeps the victim's worker holding a message when the signal comes.
    stack.smtp.rcptDelayMs = 200
    const statuses: string[] = []
    const failures: string[] = []
    let running = true
    let n = 0
    const client = async () => {
      while (running) {
        const i = n++
        // Each request its own IP: every answer is expected to be 2xx, never 429.
        const from = `127.20.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`
        const kind = i % 6 === 0 ? 0 : i % 2 + 1
        try {
          const a = kind === 0 ? await postContact(lb, from, `scale-load-${i}`)
            : await call(lb, { path: kind === 1 ? '/api/status' : '/api/site/contato/assuntos', from })
          statuses.push(`${kind}:${a.status}`)
          if (a.status === 202) keep(a)
          else if (a.status !== 200) failures.push(`${kind}:${a.status} ${a.body}`)
        } catch (err) {
          failures.push(`${kind}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
        }
        await sleep(10)
      }
    }
    const clients = Array.from({ length: 4 }, client)
    let exitedAt: Date | undefined
    try {
      await until('load under way', () => n > 60, 20_000)

      // A request in flight on the victim itself: headers sent, the body half-way.
      const body = JSON.stringify(contact('scale-inflight'))
      const inflight = connect(victim.port, '127.0.0.1')
      let reply = ''
      inflight.setEncoding('utf8').on('data', (d) => { reply += d })
      await new Promise((r) => inflight.once('connect', r))
      inflight.write(`POST /api/site/contato HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`)
      inflight.write(body.slice(0, 20))
      await sleep(100)

      const signalled = Date.now()
      victim.child.kill('SIGTERM')
      const ready = await until('the victim to answer readiness with something else than 200', async () => {
        const a = await call(victim.port, { path: '/api/health/ready', from: '127.30.0.1' })
        return a.status === 200 ? undefined : a
      }, 2000)
      assert.equal(ready.status, 503, ready.body)
      assert.equal(JSON.parse(ready.body).detail, 'servico_indisponivel')

      // The listener closes after the delay; only then does the in-flight body complete.
      await sleep(SHUTDOWN_DELAY_MS + 300)
      inflight.write(body.slice(20))
      await until('the in-flight answer', () => /\r\n\r\n\{.*\}$/s.test(reply), 5000).catch((err) => { throw new Error(`${err.message}: ${reply}`) })
      inflight.destroy()
      assert.match(reply, /^HTTP\/1\.1 202 /, reply)
      accepted.add(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).protocolo)

      const code = await Promise.race([victim.exited, sleep(10_000 - (Date.now() - signalled), 'still running' as const)])
      assert.equal(code, 0, `the victim exits 0 within 10 s:\n${victim.output().slice(-2000)}`)
      exitedAt = new Date()
      stack.smtp.rcptDelayMs = 0
      // The balancer keeps serving on the two others for a while after the exit.
      const afterExit = n
      await until('load after the exit', () => n > afterExit + 30, 20_000)
    } finally {
      running = false
      await Promise.all(clients)
    }
    assert.deepEqual(failures, [], `through nginx every answer is 2xx (${statuses.length} requests)`)
    assert.ok(statuses.filter((s) => s === '0:202').length > 10, 'contacts were posted under load')
    const log = victim.output()
    const stopping = log.indexOf('"msg":"stopping')
    assert.ok(stopping > 0 && /"msg":"stopped"/.test(log), 'the victim logged its stop')
    assert.match(log.slice(stopping), /"msg":"message delivery"/, 'the victim was still delivering after the signal')
    // It recorded the outcome of the message in hand before exiting. A claim is recorded as `enviando` with the claim's
    // time in atualizado_em, and only that claim's worker or the end of its lease (two minutes) moves it on: a row the
    // victim left claimed would stay `enviando` with a time before its exit for the whole lease, while rows the live
    // instances claimed by then leave that state within one SMTP answer.
    const exit = exitedAt!.toISOString()
    let held: { id: string, protocolo: string, atualizado_em: Date }[] = []
    await until('no row claimed before the victim exited left in state enviando', async () => {
      held = await stack.query(`SELECT id, protocolo, atualizado_em FROM outbox WHERE estado = 'enviando' AND atualizado_em <= '${exit}'`)
      return held.length === 0
    }, 10_000).catch((err) => { throw new Error(`${err.message}: ${JSON.stringify(held)}`) })
  })

  it('every accepted contact reaches the SMTP server exactly once', async () => {
    stack.smtp.rcptDelayMs = 0
    assert.ok(accepted.size > 20, `${accepted.size} contacts accepted`)
    await until(`${accepted.size} messages`, () => stack.smtp.received.length >= accepted.size, 30_000)
    // Anything sent twice would arrive within the pass that sent it: give a late duplicate its chance.
    await sleep(1000)
    const protocolos = stack.smtp.received.map((m) => String(m.parsed.headers.get('x-contato-protocolo')))
    assert.equal(protocolos.length, new Set(protocolos).size, 'no protocolo delivered twice')
    assert.deepEqual([...protocolos].sort(), [...accepted].sort())
    const rows = await stack.query<{ estado: string, n: string }>(`SELECT estado, count(*) AS n FROM outbox GROUP BY estado`)
    assert.deepEqual(rows.map((r) => [r.estado, Number(r.n)]), [['enviado', accepted.size]])
  })
})

// nginx reuses its kept-alive upstream connections, and a stop once waited for one of them past the grace (exit 1):
// the stop must end every time. Run after the suite above (its last test counts every contact e-mailed), one trial
// per stop, the stopped instance started again on its port for the next; restarted instances stop without the delay
// (Kubernetes' preStop shape), the others with it, so both shapes are tried.
describe('SIGTERM to one instance behind nginx under keep-alive load, trial after trial', () => {
  const TRIALS = 4
  const PATHS = ['/api/status', '/api/health']
  /**
   * Contacts posted through nginx in `clients` loops, each from its own address of `prefix`: a post takes long enough
   * to be in flight when the listener closes, and nginx then keeps that connection cached unused for its fail_timeout
   * (on the old stop, exits came 6 to 7 s after the signal: close to the grace).
   */
  const contactLoad = (prefix: string, clients: number) => {
    const answers: string[] = []
    let running = true
    const loop = async (k: number) => {
      for (let j = 0; running; j++) {
        const a = await postContact(lb, `${prefix}.${10 + k}`, `scale-sigterm-${prefix}-${k}-${j}`)
          .catch((err: NodeJS.ErrnoException) => ({ status: err.code, body: '' }))
        answers.push(`${a.status} ${a.body}`)
      }
    }
    const loops = Array.from({ length: clients }, (_, k) => loop(k))
    return { answers, stop: async () => { running = false; await Promise.all(loops) } }
  }
  for (let trial = 1; trial <= TRIALS; trial++) {
    const v = (trial - 1) % 3
    // Only so a broken stop fails the trial instead of hanging it: the service's own grace is 10 s plus the delay.
    const ceiling = { timeout: 90_000 }
    it(`trial ${trial} (instance ${v + 1}): exit 0, every answer through nginx 200, the request in flight answered`, ceiling, async () => {
      for (const [i, s] of stack.instances.entries()) {
        if (s.child.exitCode !== null || s.child.signalCode !== null) await stack.restart(i, { SHUTDOWN_DELAY_MS: '0' })
      }
      const victim = stack.instances[v]!
      const from = `127.40.${trial}.1`
      const throughNginx = keepAliveLoad(lb, 4, PATHS, from)
      const contacts = contactLoad(`127.40.${trial}`, 2)
      // Clients kept alive on the instance itself: 200s, then only refused or reset connections once it stops.
      const direct = keepAliveLoad(victim.port, 2, PATHS, `127.40.${trial}.2`)
      const inflight = await halfSentContact(victim.port, `scale-sigterm-${trial}`, `127.40.${trial}.3`)
      let signalledAt = Infinity
      try {
        await until('load under way', () => throughNginx.answers.length > 150 && direct.answers.length > 50, 30_000)
        // nginx takes an instance out for fail_timeout (5 s) after a failed try, and a connection reset by a stopping
        // instance as nginx reuses it counts: the instance stopped in the trial before is back in rotation first, as
        // in a rolling restart (with none in rotation nginx answers 503 itself).
        await until('every instance serving through nginx', () => stack.instances.every((s) => s.output().includes(`"ip":"${from}"`)), 20_000)
        signalledAt = Date.now()
        victim.child.kill('SIGTERM')
        await until('the listener closed', () => refusesConnections(victim.port), 15_000)
        inflight.finish()
        await until('the in-flight answer', () => answered(inflight.reply()), 10_000)
        assert.match(inflight.reply(), /^HTTP\/1\.1 202 /, inflight.reply())
        // Closed by the instance once answered, although the client sends nothing more.
        await inflight.closed
        assert.equal(await victim.exited, 0, `the instance exits 0:\n${victim.output().slice(-3000)}`)
        const atExit = throughNginx.answers.length
        await until('load through nginx after the exit', () => throughNginx.answers.length > atExit + 50, 20_000)
      } finally {
        inflight.socket.destroy()
        await Promise.all([throughNginx.stop(), direct.stop(), contacts.stop()])
      }
      // A connection the stopping instance closes as nginx reuses it is retried on another (proxy_next_upstream error).
      const failed = [...throughNginx.answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body}`), ...throughNginx.errors.map((e) => e.code)]
      assert.deepEqual(failed, [], `through nginx every answer is 200 (${throughNginx.answers.length} requests):\n${stack.lb.output().slice(-3000)}`)
      assert.ok(contacts.answers.length > 0)
      assert.deepEqual(contacts.answers.filter((a) => !a.startsWith('202 ')), [], 'every contact posted through nginx is accepted')
      assert.deepEqual(direct.answers.filter((a) => a.status !== 200), [])
      assert.deepEqual(direct.errors.filter((e) => e.at < signalledAt || !STOPPING_ERRORS.includes(e.code)), [])
      assert.match(victim.output(), /"msg":"stopped"/)
    })
  }
})

// One delivery's HTTP request. The address is checked where the connection is made: a host name is resolved by the
// request's own lookup, which refuses an address the policy forbids, so a name that resolved to a public address
// when the endpoint was saved and to a private one now (DNS rebinding) is refused at connect time; an address
// written in the URL is checked before connecting (Node does not look one up). Redirects are not followed (a 3xx is
// a failed try), the answer is read up to RESPONSE_MAX_BYTES, and the whole exchange must end within the timeout.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { AddressPolicy } from './address-policy.ts'

/** What the receiver answered, or why there is no answer. */
export type SendResult = { status: number, body: string, ms: number } | { status: null, error: string, ms: number }

export type Sender = (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>

/** The part of an answer kept in the log; the rest is read and dropped. */
export const RESPONSE_MAX_BYTES = 1000

/** Refused by the address policy: the message the log and the attempt keep. */
export const FORBIDDEN_ADDRESS = 'endereço não permitido (privado, loopback, link-local ou reservado)'

function checkedLookup(allowed: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0)
      // A throw here would be outside any handler (a DNS callback): the policy never throws, and this is checked anyway.
      let list: LookupAddress[]
      try { list = addresses.filter((a) => allowed(a.address)) } catch { list = [] }
      if (list.length === 0 || list.length !== addresses.length) {
        return callback(Object.assign(new Error(FORBIDDEN_ADDRESS), { code: 'EWEBHOOKADDR' }), '', 0)
      }
      // Node asks for every address (autoSelectFamily) or one.
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
      else callback(null, list[0]!.address, list[0]!.family)
    })
  }
}

export function makeSender(o: { allowed: AddressPolicy, timeoutMs: number, userAgent: string }): Sender {
  const lookup = checkedLookup(o.allowed)
  return (url, body, headers) => new Promise<SendResult>((resolve) => {
    const started = performance.now()
    const ms = () => Math.round(performance.now() - started)
    let target: URL
    try { target = new URL(url) } catch { return resolve({ status: null, error: 'URL inválida', ms: 0 }) }
    const host = target.hostname.replace(/^\[|\]$/g, '')
    if (isIP(host) && !o.allowed(host)) return resolve({ status: null, error: FORBIDDEN_ADDRESS, ms: 0 })
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest
    let done = false
    const finish = (r: SendResult) => { if (!done) { done = true; clearTimeout(timer); resolve(r) } }
    const req = request(target, {
      method: 'POST', lookup, agent: false,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': o.userAgent },
    }, (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      let kept = 0
      res.on('data', (c: Buffer) => {
        if (kept < RESPONSE_MAX_BYTES) { chunks.push(c.subarray(0, RESPONSE_MAX_BYTES - kept)); kept += Math.min(c.length, RESPONSE_MAX_BYTES - kept) }
        // More than the bound is not read: the connection is closed with the status in hand.
        if (kept >= RESPONSE_MAX_BYTES) { finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: ms() }); res.destroy() }
      })
      res.on('end', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: ms() }))
      res.on('error', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: ms() }))
    })
    const timer = setTimeout(() => {
      finish({ status: null, error: `sem resposta em ${o.timeoutMs} ms`, ms: ms() })
      req.destroy()
    }, o.timeoutMs)
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, error: describe(err), ms: ms() }))
    req.end(body)
  })
}

/** An error as the log shows it: its kind, never a value the receiver chose beyond what the system says. */
function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'EWEBHOOKADDR') return FORBIDDEN_ADDRESS
  return `${err.code ?? err.name}: ${err.message}`.slice(0, 300)
}

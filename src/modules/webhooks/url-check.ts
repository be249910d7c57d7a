// A webhook URL as saved: absolute, https (plain http outside production, for a receiver on a developer's machine),
// no user or password (they would be sent to whoever the URL names, and kept in the log), no fragment, and a host
// whose every address is one the policy allows now. The sender checks again at each connection (sender.ts): a
// name's addresses may change after it was saved.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { AddressPolicy } from './address-policy.ts'

/** What the database keeps of a URL (migration 0048). */
const URL_MAX = 2000
const LOOKUP_TIMEOUT_MS = 5000

export type UrlCheck = (raw: string) => Promise<{ url: string } | { problem: string }>

export function urlCheck(o: { allowed: AddressPolicy, production: boolean, resolve?: (host: string) => Promise<string[]> }): UrlCheck {
  const resolve = o.resolve ?? (async (host: string) => (await lookup(host, { all: true })).map((a) => a.address))
  // A name server that never answers does not hold the request: a name not resolved in time is refused.
  const resolveInTime = (host: string) => Promise.race([resolve(host),
    new Promise<never>((_, reject) => { setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref() })])
  return async (raw) => {
    let u: URL
    try { u = new URL(raw) } catch { return { problem: 'não é uma URL absoluta (https://…)' } }
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && !o.production)) {
      return { problem: o.production ? 'a URL deve ser https://' : 'a URL deve ser https:// (ou http:// fora de produção)' }
    }
    if (u.username || u.password) return { problem: 'a URL não pode ter usuário nem senha' }
    if (u.hash) return { problem: 'a URL não pode ter fragmento (#…)' }
    if (u.href.length > URL_MAX) return { problem: `a URL, normalizada, passa de ${URL_MAX} caracteres` }
    const host = u.hostname.replace(/^\[|\]$/g, '')
    let addresses: string[]
    if (isIP(host)) addresses = [host]
    else {
      try { addresses = await resolveInTime(host) } catch { return { problem: `o nome ${host} não resolve para nenhum endereço` } }
    }
    if (addresses.length === 0) return { problem: `o nome ${host} não resolve para nenhum endereço` }
    if (!addresses.every(o.allowed)) {
      // Outside production the person trying it is the operator too: the setting that allows a network of one's own is named.
      return { problem: 'a URL leva a um endereço que não é público (rede privada, loopback, link-local ou reservada): não é permitido'
        + (o.production ? '' : ' (fora de produção, o operador pode permitir uma rede própria em WEBHOOK_ALLOWED_NETWORKS)') }
    }
    return { url: u.href }
  }
}

// A webhook URL as saved: absolute, https (plain http outside production, for a receiver on a developer's machine),
// no user or password (they would be sent to whoever the URL names, and kept in the log), no fragment, and a host
// whose every address is one the policy allows now. The sender checks again at each connection (sender.ts): a
// name's addresses may change after it was saved.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { AddressPolicy } from './address-policy.ts'

export type UrlCheck = (raw: string) => Promise<{ url: string } | { problem: string }>

export function urlCheck(o: { allowed: AddressPolicy, production: boolean, resolve?: (host: string) => Promise<string[]> }): UrlCheck {
  const resolve = o.resolve ?? (async (host: string) => (await lookup(host, { all: true })).map((a) => a.address))
  return async (raw) => {
    let u: URL
    try { u = new URL(raw) } catch { return { problem: 'não é uma URL absoluta (https://…)' } }
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && !o.production)) {
      return { problem: o.production ? 'a URL deve ser https://' : 'a URL deve ser https:// (ou http:// fora de produção)' }
    }
    if (u.username || u.password) return { problem: 'a URL não pode ter usuário nem senha' }
    if (u.hash) return { problem: 'a URL não pode ter fragmento (#…)' }
    const host = u.hostname.replace(/^\[|\]$/g, '')
    let addresses: string[]
    if (isIP(host)) addresses = [host]
    else {
      try { addresses = await resolve(host) } catch { return { problem: `o nome ${host} não resolve para nenhum endereço` } }
    }
    if (addresses.length === 0) return { problem: `o nome ${host} não resolve para nenhum endereço` }
    if (!addresses.every(o.allowed)) {
      return { problem: 'a URL leva a um endereço que não é público (rede privada, loopback, link-local ou reservada): não é permitido' }
    }
    return { url: u.href }
  }
}

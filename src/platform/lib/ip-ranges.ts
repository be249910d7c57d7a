// IP ranges as the settings give them (RATE_LIMIT_ALLOWLIST, TRUST_PROXY): checked at start, matched per request.
import { BlockList, isIP } from 'node:net'
import { BoundedMemo } from './bounded-memo.ts'

/** An address or CIDR range as the settings give them (RATE_LIMIT_ALLOWLIST, TRUST_PROXY). */
export function isIpOrCidr(item: string): boolean {
  const [addr, bits] = item.split('/')
  const family = isIP(addr ?? '')
  const max = family === 4 ? 32 : 128
  return family !== 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max))
}

/** For the allowlist and proxy checks: does `ip` fall in any of `cidrs`? */
export function makeIpMatcher(cidrs: string[]): (ip: string) => boolean {
  if (cidrs.length === 0) return () => false
  const list = new BlockList()
  for (const c of cidrs) {
    const [addr, bits] = c.split('/') as [string, string | undefined]
    const type = isIP(addr) === 4 ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(addr, type)
    else list.addSubnet(addr, Number(bits), type)
  }
  // BlockList.check builds a SocketAddress per call, a measurable share of a cheap request: answers are
  // remembered per address (clients are few compared with requests).
  const memo = new BoundedMemo<boolean>(10_000)
  return (ip) => memo.get(ip, () => {
    const mapped = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
    const type = isIP(mapped)
    return type !== 0 && list.check(mapped, type === 4 ? 'ipv4' : 'ipv6')
  })
}

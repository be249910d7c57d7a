// Where a webhook may be delivered: a public unicast address only (ipaddr.js's classification of the IANA special
// registries), so a customer's URL cannot make the service reach its own network: loopback, private and carrier-grade
// NAT ranges, link-local (the cloud metadata service, 169.254.169.254), unique-local (fd00:ec2::254), multicast,
// reserved and documentation ranges are refused. An IPv4 address inside IPv6 (::ffff:10.0.0.1, NAT64's 64:ff9b::/96,
// 6to4, Teredo) is judged by the IPv4 address it carries. The operator's WEBHOOK_ALLOWED_NETWORKS are allowed anyway.
import ipaddr from 'ipaddr.js'
import { makeIpMatcher } from '../../platform/lib/ip-ranges.ts'

export type AddressPolicy = (address: string) => boolean

/** The IPv4 address an IPv6 one carries, where it is a transition form (read from its bytes: nothing here throws). */
function embeddedV4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = a.range()
  const b = a.toByteArray()
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return new ipaddr.IPv4(b.slice(12, 16))
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6))
  if (range === 'teredo') return new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff))
  return undefined
}

function isPublic(address: string): boolean {
  try {
    if (!ipaddr.isValid(address)) return false
    const parsed = ipaddr.parse(address)
    if (parsed.kind() === 'ipv6') {
      const v6 = parsed as ipaddr.IPv6
      // ::/96, the deprecated IPv4-compatible form (and :: and ::1): never a public receiver's address.
      if (v6.toByteArray().slice(0, 12).every((x) => x === 0)) return false
      const v4 = embeddedV4(v6)
      if (v4) return v4.range() === 'unicast'
    }
    return parsed.range() === 'unicast'
  } catch {
    // An address the library cannot place is not one to deliver to.
    return false
  }
}

export function addressPolicy(allowedNetworks: string[]): AddressPolicy {
  const allowed = makeIpMatcher(allowedNetworks)
  return (address) => allowed(address) || isPublic(address)
}

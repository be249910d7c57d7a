// The `htu` of a proof against the URL the request was made to (RFC 9449 section 4.3: "ignoring any query and
// fragment parts", after the syntax- and scheme-based normalisation of RFC 3986 sections 6.2.2 and 6.2.3).
// WHATWG's URL parser already lowercases the scheme and host, drops the default port, gives an empty path as
// "/" and removes dot segments; what is left is percent-encoding: hex digits in upper case, and unreserved
// characters decoded.

import { BoundedMemo } from '../../../platform/lib/bounded-memo.ts'

const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/** `scheme://host[:port]/path` of an absolute http(s) URL, normalised; undefined for anything else. */
function normalizeHtu(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  // User information has no place in a target URI (RFC 9110 section 4.2.4).
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined
  const path = url.pathname.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16))
    return UNRESERVED.test(char) ? char : escape.toUpperCase()
  })
  return `${url.protocol}//${url.host}${path}`
}

// A client calls the same few URLs again and again, and parsing one is a few microseconds of every DPoP request:
// the normal form of each is kept (a pure function of the text).
const normalForms = new BoundedMemo<string | undefined>(1000, 512)
const normalized = (value: string) => normalForms.get(value, () => normalizeHtu(value))

/** Both are absolute http(s) URLs naming the same resource, queries and fragments aside. */
export function sameHtu(claim: string, expected: string): boolean {
  const a = normalized(claim)
  return a !== undefined && a === normalized(expected)
}

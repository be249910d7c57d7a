// The `htu` of a proof against the URL the request was made to (RFC 9449 section 4.3: "ignoring any query and
// fragment parts", after the syntax- and scheme-based normalisation of RFC 3986 sections 6.2.2 and 6.2.3).
// WHATWG's URL parser already lowercases the scheme and host, drops the default port, gives an empty path as
// "/" and removes dot segments; what is left is percent-encoding: hex digits in upper case, and unreserved
// characters decoded.

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

/** Both are absolute http(s) URLs naming the same resource, queries and fragments aside. */
export function sameHtu(claim: string, expected: string): boolean {
  const a = normalized(claim)
  return a !== undefined && a === normalized(expected)
}

// A client calls the same few URLs again and again, and parsing one is a few microseconds of every DPoP request:
// the normal form of each is kept (a pure function of the text). Bounded: past MEMO_MAX it starts again.
const MEMO_MAX = 1000
const MEMO_KEY_MAX = 512
const normalForms = new Map<string, string | undefined>()

function normalized(value: string): string | undefined {
  if (normalForms.has(value)) return normalForms.get(value)
  const form = normalizeHtu(value)
  // The claim's htu is anyone's text: a long one is not kept.
  if (value.length > MEMO_KEY_MAX) return form
  if (normalForms.size >= MEMO_MAX) normalForms.clear()
  normalForms.set(value, form)
  return form
}

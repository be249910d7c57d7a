// Content negotiation for the site: HTML or Markdown by the Accept header's q-values (RFC 9110 §12.5.1),
// and the compression of a response by Accept-Encoding. Each distinct header value is parsed once.
import Negotiator from 'negotiator'
import { BoundedMemo } from '../../platform/lib/bounded-memo.ts'

export type PageFormat = 'html' | 'markdown'

const TYPES = ['text/html', 'text/markdown']

/**
 * The format a request prefers, or null when neither HTML nor Markdown (nor any wildcard covering them) is
 * acceptable. Higher q wins; at equal q the more specific range wins, then the order in the header;
 * `text/markdown;q=0` refuses Markdown even beside `*\/*`. No Accept (or an empty one) means anything: HTML.
 */
export function preferredFormat(accept: string | undefined): PageFormat | null {
  if (accept === undefined || accept.trim() === '') return 'html'
  return formats.get(accept, () => {
    const type = new Negotiator({ headers: { accept: withoutParameters(accept) } }).mediaType(TYPES)
    return type === 'text/markdown' ? 'markdown' : type === 'text/html' ? 'html' : null
  })
}

// Media-type parameters (`charset=utf-8`, `variant=GFM`) would make a range match nothing we serve: we serve
// one variant of each type, so only the type and its q-value take part.
function withoutParameters(accept: string): string {
  return accept.split(',').map((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim())
    const q = params.find((p) => /^q\s*=/i.test(p))
    return q ? `${type};${q.replace(/\s+/g, '')}` : type
  }).join(',')
}

export type Encoding = 'br' | 'gzip' | 'identity'
const ENCODINGS = ['br', 'gzip', 'identity']

export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity'
  return encodings.get(acceptEncoding, () => {
    // At equal q, our order decides (browsers list gzip first and br later, both at q=1).
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as Negotiator & {
      encoding(available: readonly string[], opts: { preferred: readonly string[] }): string | undefined
    }
    const enc = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS })
    return enc === 'br' || enc === 'gzip' ? enc : 'identity'
  })
}

// Clients send a handful of distinct header values: each is parsed once.
const formats = new BoundedMemo<PageFormat | null>(256)
const encodings = new BoundedMemo<Encoding>(256)

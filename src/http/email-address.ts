// Why an e-mail address is refused, in the words of python-email-validator (which pydantic's EmailStr uses),
// so a client written against a FastAPI service reads the same `ctx.reason`. Deliverability is not checked.

const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.\u0080-\u{10FFFF}]$/u
const SPECIAL_USE = ['arpa', 'invalid', 'local', 'localhost', 'onion', 'test']

/** Returns null for a valid address, otherwise the reason it is not one. */
export function emailProblem(address: string): string | null {
  const at = address.lastIndexOf('@')
  if (at < 0) return 'An email address must have an @-sign.'
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (local.length === 0) return 'There must be something before the @-sign.'
  if (domain.length === 0) return 'There must be something after the @-sign.'
  return localPartProblem(local) ?? domainProblem(domain)
}

function localPartProblem(local: string): string | null {
  const bad = [...new Set([...local].filter((c) => !ATEXT.test(c)))].sort()
  if (bad.length > 0) return `The email address contains invalid characters before the @-sign: ${bad.map(display).join(', ')}.`
  const over = [...local].length - 64
  if (over > 0) return `The email address is too long before the @-sign (${plural(over, 'character')} too many).`
  if (local.startsWith('.')) return 'An email address cannot start with a period.'
  if (local.endsWith('.')) return 'An email address cannot have a period immediately before the @-sign.'
  if (local.includes('..')) return 'An email address cannot have two periods in a row.'
  return null
}

function domainProblem(domain: string): string | null {
  const bad = [...new Set([...domain].filter((c) => !/^[A-Za-z0-9.\-\u0080-\u{10FFFF}]$/u.test(c)))].sort()
  if (bad.length > 0) return `The part after the @-sign contains invalid characters: ${bad.map(display).join(', ')}.`
  if (domain.startsWith('.')) return 'An email address cannot have a period immediately after the @-sign.'
  if (domain.endsWith('.')) return 'An email address cannot end with a period.'
  if (domain.includes('..')) return 'An email address cannot have two periods in a row.'
  if (domain.startsWith('-')) return 'An email address cannot have a hyphen immediately after the @-sign.'
  if (domain.endsWith('-')) return 'An email address cannot end with a hyphen.'
  if (/\.-|-\./.test(domain)) return 'An email address cannot have a period and a hyphen next to each other.'
  if ([...domain].length > 253) return 'The email address is too long after the @-sign.'
  for (const label of domain.split('.')) {
    const over = [...label].length - 63
    if (over > 0) return `After the @-sign, periods cannot be separated by so many characters (${plural(over, 'character')} too many).`
  }
  if (!domain.includes('.')) return 'The part after the @-sign is not valid. It should have a period.'
  const lower = domain.toLowerCase()
  if (SPECIAL_USE.some((d) => lower === d || lower.endsWith('.' + d))) {
    return 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'
  }
  const tld = lower.slice(lower.lastIndexOf('.') + 1)
  if (!/^[a-z\u0080-\u{10FFFF}]/u.test(tld)) return 'The part after the @-sign is not valid. It is not within a valid top-level domain.'
  return null
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

// Python's repr() of one character, or its Unicode name for the invisible ones, as email-validator shows them.
function display(c: string): string {
  const names: Record<string, string> = { ' ': 'SPACE', '\t': 'CHARACTER TABULATION', '\n': 'LINE FEED (LF)', '\r': 'CARRIAGE RETURN (CR)', '\u00a0': 'NO-BREAK SPACE' }
  const named = names[c]
  if (named) return named
  const cp = c.codePointAt(0)!
  if (cp < 0x20 || cp === 0x7f) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
  return c === "'" ? `"'"` : `'${c}'`
}

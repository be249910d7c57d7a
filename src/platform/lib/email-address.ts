// Why an e-mail address is refused, in the words of python-email-validator (which pydantic's EmailStr uses),
// so a client written against a FastAPI service reads the same `ctx.reason`. Deliverability is not checked.
// The checks run in email-validator's order, because the first one that fails names the reason.
// Not emulated: quoted local parts, `Name <addr>` forms, UTS-46 mapping and IDNA validity of domains.

const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.\u0080-\u{10FFFF}]$/u
const HOSTNAME_CHAR = /^[A-Za-z0-9.\-\u0080-\u{10FFFF}]$/u
const VISIBLE = /^[\p{L}\p{N}\p{P}\p{S}]$/u
const MARK = /^\p{M}$/u
const NON_ASCII = /[^\p{ASCII}]/u
const SPECIAL_USE = ['arpa', 'invalid', 'local', 'localhost', 'onion', 'test']

/**
 * An address as the platform keeps it and looks it up: trimmed, lower-cased (login is case-insensitive) and in
 * Unicode NFC, so `josé@…` typed with a combining accent (NFD, as some keyboards and macOS file names give it) and
 * with a precomposed é is one address, not two accounts.
 */
export function canonicalEmail(address: string): string {
  return address.trim().toLowerCase().normalize('NFC')
}

/** Returns null for a valid address, otherwise the reason it is not one. */
export function emailProblem(address: string): string | null {
  // pydantic's own cap, checked before email-validator runs.
  if ([...address].length > 2048) return 'Length must not exceed 2048 characters'
  // email-validator splits at the first @-sign: any later one is an invalid character of the domain.
  const at = address.indexOf('@')
  if (at < 0) return 'An email address must have an @-sign.'
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (local.length === 0) return 'There must be something before the @-sign.'
  return localPartProblem(local)
    ?? (domain.length === 0 ? 'There must be something after the @-sign.' : domainProblem(domain))
    ?? lengthProblem(address)
}

function localPartProblem(local: string): string | null {
  const chars = [...local]
  if (chars.length > 64) return `The email address is too long before the @-sign ${tooMany(chars.length - 64)}.`
  const bad = invalidChars(chars, ATEXT)
  if (bad) return `The email address contains invalid characters before the @-sign: ${bad}.`
  return dotAtomProblem(
    local, (w) => `An email address cannot start with a ${w}.`, (w) => `An email address cannot have a ${w} immediately before the @-sign.`, false,
  )
    ?? unsafeProblem(chars)
}

function domainProblem(domain: string): string | null {
  const chars = [...domain]
  const bad = invalidChars(chars, HOSTNAME_CHAR)
  if (bad) return `The part after the @-sign contains invalid characters: ${bad}.`
  const unsafe = unsafeProblem(chars)
  if (unsafe) return unsafe
  const lower = domain.toLowerCase()
  const dots = dotAtomProblem(
    lower, (w) => `An email address cannot have a ${w} immediately after the @-sign.`, (w) => `An email address cannot end with a ${w}.`, true,
  )
  if (dots) return dots
  const labels = lower.split('.')
  if (labels.some((l) => /^(?!xn)..--/u.test(l))) {
    return 'An email address cannot have two letters followed by two dashes immediately after the @-sign or after a period, except Punycode.'
  }
  if (chars.length > 253) {
    return NON_ASCII.test(domain)
      ? 'The email address is too long after the @-sign.'
      : `The email address is too long after the @-sign ${tooMany(chars.length - 253)}.`
  }
  for (const label of labels) {
    const over = [...label].length - 63
    if (over > 0) return `After the @-sign, periods cannot be separated by so many characters ${tooMany(over)}.`
  }
  if (labels.length < 2) return 'The part after the @-sign is not valid. It should have a period.'
  // Every TLD ends with a letter; an internationalized one always does once IDNA-encoded (Punycode ends in a letter).
  const tld = labels.at(-1)!
  if (!/[a-z]$/.test(tld) && !NON_ASCII.test(tld)) return 'The part after the @-sign is not valid. It is not within a valid top-level domain.'
  if (SPECIAL_USE.some((d) => lower === d || lower.endsWith('.' + d))) {
    return 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'
  }
  return null
}

type Describe = (what: 'period' | 'hyphen') => string

function dotAtomProblem(s: string, start: Describe, end: Describe, hostname: boolean): string | null {
  if (s.endsWith('.')) return end('period')
  if (s.startsWith('.')) return start('period')
  if (s.includes('..')) return 'An email address cannot have two periods in a row.'
  if (!hostname) return null
  if (s.endsWith('-')) return end('hyphen')
  if (s.startsWith('-')) return start('hyphen')
  if (s.includes('.-') || s.includes('-.')) return 'An email address cannot have a period and a hyphen next to each other.'
  return null
}

// Invisible, spacing and direction-changing characters let one address pass for another.
function unsafeProblem(chars: string[]): string | null {
  const bad = new Set(chars.filter((c, i) => !VISIBLE.test(c) && !(i > 0 && MARK.test(c))))
  if (bad.size === 0) return null
  const sorted = [...bad].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!)
  return `The email address contains unsafe characters: ${sorted.map(display).join(', ')}.`
}

// The whole address, in UTF-8 bytes as SMTPUTF8 counts it.
function lengthProblem(address: string): string | null {
  const chars = [...address]
  const bytes = Buffer.byteLength(address)
  const over = bytes - 254
  if (over <= 0) return null
  if (bytes === chars.length) return `The email address is too long ${tooMany(over)}.`
  const least = Math.max(1, Math.floor(over / Math.max(...chars.map((c) => Buffer.byteLength(c)))))
  return `The email address is too long (${least === over ? over : `${least}-${over}`} character${over > 1 ? 's' : ''} too many).`
}

function tooMany(n: number): string {
  return `(${n} character${n > 1 ? 's' : ''} too many)`
}

// Python sorts the displayed forms, not the characters.
function invalidChars(chars: string[], allowed: RegExp): string | null {
  const bad = [...new Set(chars.filter((c) => !allowed.test(c)).map(display))].sort()
  return bad.length > 0 ? bad.join(', ') : null
}

// Names of the invisible characters most likely to be pasted into an address. Python names every character
// it can; without a Unicode name table the others show as U+XXXX, as Python shows unnamed ones (controls).
const NAMES: Record<string, string> = {
  ' ': 'SPACE', '\u00a0': 'NO-BREAK SPACE', '\u00ad': 'SOFT HYPHEN', '\u200b': 'ZERO WIDTH SPACE',
  '\u200c': 'ZERO WIDTH NON-JOINER', '\u200d': 'ZERO WIDTH JOINER', '\u200e': 'LEFT-TO-RIGHT MARK',
  '\u200f': 'RIGHT-TO-LEFT MARK', '\u2028': 'LINE SEPARATOR', '\u2029': 'PARAGRAPH SEPARATOR',
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING', '\u202b': 'RIGHT-TO-LEFT EMBEDDING', '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE', '\u202e': 'RIGHT-TO-LEFT OVERRIDE', '\u2060': 'WORD JOINER',
  '\u3000': 'IDEOGRAPHIC SPACE', '\ufeff': 'ZERO WIDTH NO-BREAK SPACE',
}

// email-validator's safe_character_display(): repr() of a visible character, else its name, else U+XXXX.
function display(c: string): string {
  if (c === '\\') return '"\\"'
  if (VISIBLE.test(c)) return c === "'" ? `"'"` : `'${c}'`
  const cp = c.codePointAt(0)!
  return NAMES[c] ?? `U+${cp.toString(16).toUpperCase().padStart(cp < 0xffff ? 4 : 8, '0')}`
}

// The one rule for names a customer or the operator chooses (a customer's, a person's, a token's): they are shown
// in pages, e-mails and the operator's terminal, so no character may act on the screen that shows them (C0 and C1
// controls, ESC and OSC sequences among them; line and paragraph breaks, which forge a listing's rows; bidi
// overrides, isolates and marks, which reorder what is read), and the length is counted as PostgreSQL's
// length() counts it, in characters (code points), so the form, the store and the database's CHECK agree.
// Migration 0010 holds the same character class as a CHECK on each table; keep the two alike.

/** C0 (tabs and line breaks included), DEL, C1, line/paragraph separators, bidi embeddings, overrides, isolates, marks. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const UNSAFE_NAME_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

/**
 * A JSON Schema pattern for text a person writes once and others read (a reason, an entry's history, a signatory's
 * name): none of UNSAFE_NAME_CHARACTER (a line break would forge a document's lines), and at least `min` characters
 * that are not blanks, so that blanks around one letter are not a reason.
 */
export const writtenTextPattern = (min: number): string => `^(?=(?:\\s*\\S){${min}})[^${UNSAFE_NAME_CHARACTER.source.slice(1, -1)}]*$`

/** `s` without the characters a name may not have: what a refused form shows back, so the page never carries them. */
export function withoutUnsafe(s: string): string {
  return s.replace(new RegExp(UNSAFE_NAME_CHARACTER.source, 'gu'), '')
}

export type NameProblem = 'vazio' | 'longo' | 'controle'

/** Characters as PostgreSQL counts them (code points), not UTF-16 units: an emoji is one. */
export function characterCount(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

/** Why a name (already trimmed) is refused, or undefined when it is fine. */
export function nameProblem(name: string, max: number): NameProblem | undefined {
  if (name.length === 0) return 'vazio'
  if (UNSAFE_NAME_CHARACTER.test(name)) return 'controle'
  if (characterCount(name) > max) return 'longo'
  return undefined
}

/** The store's words for a refused name (English, as every CredentialInputError). */
export function nameRefusal(what: string, problem: NameProblem, max: number): string {
  return problem === 'controle'
    ? `the ${what} may not contain control characters, line breaks or bidirectional controls`
    : `the ${what} must have 1 to ${max} characters`
}

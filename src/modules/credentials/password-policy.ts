// What a password must be to be set (at /conta/ativar): NIST SP 800-63B's rules rather than composition rules. At
// least 12 characters; at most 128 (argon2 hashes whatever it is given: the bound keeps a login's cost fixed);
// not one of the most common passwords, nor one with digits and symbols merely added around one ("dragon2024!");
// not the person's e-mail or name. Characters are Unicode code points after NFKC normalisation.
//
// The list (common-passwords.txt, beside this file) is SecLists' Passwords/Common-Credentials/10k-most-common.txt (MIT
// licence, github.com/danielmiessler/SecLists), one password a line, compared without regard to case.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 128

export const COMMON_PASSWORDS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt')

/** Why a password cannot be set; the route maps each to its message. */
export type PasswordProblem = 'senha_curta' | 'senha_longa' | 'senha_comum' | 'senha_pessoal'

/** Who the password is for: refusing their own e-mail or name as a password. */
export type PasswordOwner = { email?: string | undefined, nome?: string | undefined }

/**
 * NFKC, as NIST SP 800-63B asks before a password is hashed or checked: the same password typed on two systems
 * (a composed "ç", or a "c" and a combining cedilla) must be the same password.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC')
}

/** The common passwords, lower-cased, read once by whoever checks passwords (the file is about 70 KiB). */
export function loadCommonPasswords(file = COMMON_PASSWORDS_FILE): ReadonlySet<string> {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/)
  return new Set(lines.map((line) => lower(line)).filter((line) => line.length > 0))
}

/** Undefined when the password may be set; otherwise the first rule it breaks. */
export function passwordProblem(password: string, owner: PasswordOwner, common: ReadonlySet<string>): PasswordProblem | undefined {
  const normal = normalizePassword(password)
  const length = [...normal].length
  if (length < PASSWORD_MIN_LENGTH) return 'senha_curta'
  if (length > PASSWORD_MAX_LENGTH) return 'senha_longa'
  const whole = lower(normal)
  // The password without the digits, symbols and spaces around its letters: "Password123!" is "password".
  const core = whole.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
  const candidates = core && core !== whole ? [whole, core] : [whole]
  if (candidates.some((c) => personal(owner).has(c))) return 'senha_pessoal'
  if (candidates.some((c) => common.has(c)) || new Set(normal).size === 1) return 'senha_comum'
  return undefined
}

function personal(owner: PasswordOwner): Set<string> {
  const values = new Set<string>()
  const email = lower(owner.email ?? '')
  if (email) {
    values.add(email)
    const local = email.split('@')[0]
    if (local) values.add(local)
  }
  const nome = lower(owner.nome ?? '')
  if (nome) {
    values.add(nome)
    values.add(nome.replace(/\s+/g, ''))
  }
  return values
}

function lower(text: string): string {
  return normalizePassword(text).trim().toLowerCase()
}

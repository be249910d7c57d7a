// Password hashing: argon2id through @node-rs/argon2, with OWASP's Password Storage Cheat Sheet minimum for
// argon2id (19 MiB of memory, 2 iterations, 1 degree of parallelism; 16-byte salt, 32-byte hash). A stored hash
// made with other parameters still verifies; `needsRehash` tells the login to store a new one.
import { randomBytes } from 'node:crypto'
import type { Options } from '@node-rs/argon2'
import { onFirstUse } from '../../platform/lib/on-first-use.ts'
import { normalizePassword, PASSWORD_MAX_LENGTH } from './password-policy.ts'

// The package declares its enum `const`, which only the TypeScript compiler inlines: the number is written here.
const ARGON2ID = 2

const loadArgon2 = onFirstUse(() => import('@node-rs/argon2'))

export type PasswordHashOptions = Required<Pick<Options, 'algorithm' | 'memoryCost' | 'timeCost' | 'parallelism' | 'outputLen'>>

export const PASSWORD_HASH_OPTIONS: Readonly<PasswordHashOptions> = {
  algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32,
}

export type PasswordHasher = {
  hash(password: string): Promise<string>
  /**
   * Whether `password` matches `stored`. With no stored hash (an unknown e-mail, a user who never set a password) a
   * dummy hash made with the same parameters is verified instead and the answer is false: the time taken does not
   * tell whether the account exists.
   */
  verify(stored: string | null | undefined, password: string): Promise<boolean>
  /** The stored hash was made with other parameters (or another algorithm): hash the password again after a login. */
  needsRehash(stored: string): Promise<boolean>
}

export function makePasswordHasher(options: Readonly<PasswordHashOptions> = PASSWORD_HASH_OPTIONS): PasswordHasher {
  let dummy: Promise<string> | undefined
  const dummyHash = () => (dummy ??= loadArgon2().then((a) => a.hash(randomBytes(18).toString('base64url'), options)))
  return {
    hash: async (password) => (await loadArgon2()).hash(normalizePassword(password), options),
    async verify(stored, password) {
      const { verify } = await loadArgon2()
      const given = normalizePassword(password)
      // Longer than any password the policy lets be set: refused alike for every account, without hashing it.
      if ([...given].length > PASSWORD_MAX_LENGTH) return false
      // No account, or a stored value the library cannot read (it rejects instead of answering false): the
      // same refusal, after the same work, never an error that would become a 500 at login.
      const checked = stored ? await verify(stored, given).catch(() => undefined) : undefined
      if (checked !== undefined) return checked
      await verify(await dummyHash(), given)
      return false
    },
    async needsRehash(stored) {
      const { parseOptions } = await loadArgon2()
      let used: ReturnType<typeof parseOptions>
      try {
        used = parseOptions(stored)
      } catch {
        return true
      }
      return used.algorithm !== options.algorithm || used.memoryCost !== options.memoryCost || used.timeCost !== options.timeCost ||
        used.parallelism !== options.parallelism || used.outputLen !== options.outputLen
    },
  }
}


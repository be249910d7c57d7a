// SERVICE_CONFIG_FILE: the contact subjects and the rate-limit budgets, read and checked once at start.
import { readFileSync } from 'node:fs'
import type { Subject } from './contact/subjects.ts'
import { emailProblem } from './email-address.ts'
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit-config.ts'
import { ConfigError } from './startup-error.ts'

export type ConfigFile = { subjects?: Subject[], rateLimits?: Partial<RateLimits> }

export function readConfigFile(path: string): ConfigFile {
  if (!path) return {}
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(`SERVICE_CONFIG_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    // V8's message quotes the text around the error, which may be a secret if the wrong file is named.
    throw new ConfigError(`SERVICE_CONFIG_FILE: ${path} is not valid JSON`)
  }
  // JSON.parse also yields null, arrays and scalars; reading fields of those would be a TypeError, not a message.
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ConfigError(`SERVICE_CONFIG_FILE: ${path} must hold a JSON object`)
  // A misspelt key would otherwise be ignored, and the operator left believing it applied.
  const unknownKey = Object.keys(data).find((k) => k !== 'subjects' && k !== 'rateLimits')
  if (unknownKey !== undefined) throw new ConfigError(`SERVICE_CONFIG_FILE: unknown key "${unknownKey}" (expected "subjects", "rateLimits")`)
  const file = data as ConfigFile
  if (file.subjects !== undefined) {
    const ok = Array.isArray(file.subjects) && file.subjects.length > 0 && file.subjects.every((s) =>
      typeof s?.codigo === 'string' && /^[a-z0-9_-]+$/.test(s.codigo) && typeof s.rotulo === 'string' && typeof s.email === 'string' && emailProblem(s.email) === null)
    if (!ok) throw new ConfigError('SERVICE_CONFIG_FILE: "subjects" must be a list of {codigo (lower-case), rotulo, email (a valid address)}')
    if (!file.subjects.some((s) => s.codigo === 'geral')) {
      throw new ConfigError('SERVICE_CONFIG_FILE: "subjects" must include "geral" (unknown subjects fall to it)')
    }
  }
  if (file.rateLimits !== undefined) {
    if (typeof file.rateLimits !== 'object' || file.rateLimits === null || Array.isArray(file.rateLimits)) {
      throw new ConfigError('SERVICE_CONFIG_FILE: "rateLimits" must be an object of budgets')
    }
    for (const [k, v] of Object.entries(file.rateLimits)) {
      if (!Object.hasOwn(DEFAULT_RATE_LIMITS, k)) {
        throw new ConfigError(`SERVICE_CONFIG_FILE: unknown budget rateLimits.${k} (expected ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`)
      }
      const ok = v && Number.isInteger(v.max) && v.max > 0 && Number.isInteger(v.windowSeconds) && v.windowSeconds > 0
      if (!ok) throw new ConfigError(`SERVICE_CONFIG_FILE: rateLimits.${k} must be {max, windowSeconds} with whole numbers above 0`)
    }
  }
  return file
}

// SERVICE_CONFIG_FILE: a JSON object whose keys the areas declare (FileSetting), read and checked once at start.
import { readFileSync } from 'node:fs'
import { ConfigError } from '../lib/startup-error.ts'
import { text } from './kinds.ts'

export const CONFIG_FILE = text('SERVICE_CONFIG_FILE', {
  unset: 'defaults in code',
  description: 'JSON file overriding the keys the areas declare (the contact subjects, the rate limits)',
})

/** The file's object, its keys checked against `keys`; {} without a file. */
export function readConfigFile(path: string, keys: string[]): Record<string, unknown> {
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
  const unknownKey = Object.keys(data).find((k) => !keys.includes(k))
  if (unknownKey !== undefined) {
    throw new ConfigError(`SERVICE_CONFIG_FILE: unknown key "${unknownKey}" (expected ${keys.map((k) => `"${k}"`).join(', ')})`)
  }
  return data as Record<string, unknown>
}

/** For a FileSetting's read: its problem said as SERVICE_CONFIG_FILE's. */
export function fileProblem(problem: string): never {
  throw new ConfigError(`SERVICE_CONFIG_FILE: ${problem}`)
}

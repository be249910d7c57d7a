// The kinds of setting an area declares: each knows its variable, what unset means, what it accepts, and how a
// value is read. A bad value is a ConfigError naming the variable, never repeating a password a URL may hold.
import { ConfigError } from '../lib/startup-error.ts'

/** What an unset (or blank) variable means: a value as an operator would write it, or words ("off"). */
export type WhenUnset = { value: string } | { means: string }

export type EnvSetting<T> = {
  from: 'env'
  env: string
  description: string
  whenUnset: WhenUnset
  /** The values it takes, for the listing (`1 to 1000`, `json, pretty`). */
  accepts?: string
  /** The trimmed value; '' when unset. */
  read(raw: string): T
}

/** A key of SERVICE_CONFIG_FILE: `read` gets undefined when the file or the key is absent. */
export type FileSetting<T> = {
  from: 'file'
  key: string
  description: string
  /** A problem is said as text; the loader names SERVICE_CONFIG_FILE before it. */
  read(value: unknown, fail: (problem: string) => never): T
}

export type Setting<T> = EnvSetting<T> | FileSetting<T>

type Doc = { description: string }
type Unset = { unset: string }

function env<T>(name: string, doc: Doc, whenUnset: WhenUnset, read: (raw: string) => T, accepts?: string): EnvSetting<T> {
  return { from: 'env', env: name, description: doc.description, whenUnset, accepts, read }
}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  // Plain decimal digits only: Number() would also take "0x10", "1e3" or "3000.0".
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return n
}

type Bounds = { min: number, max: number }

export function int(name: string, o: Bounds & Doc & { default: number }): EnvSetting<number> {
  return env(name, o, { value: String(o.default) }, (raw) => raw ? wholeNumber(name, raw, o.min, o.max) : o.default, `${o.min} to ${o.max}`)
}

/** A whole number whose absence means something no number stands for (off; a limit computed at start). */
export function optionalInt(name: string, o: Bounds & Doc & Unset): EnvSetting<number | undefined> {
  return env(name, o, { means: o.unset }, (raw) => raw ? wholeNumber(name, raw, o.min, o.max) : undefined, `${o.min} to ${o.max}`)
}

export function text(name: string, o: Doc & ({ default: string } | Unset)): EnvSetting<string> {
  if ('default' in o) return env(name, o, { value: o.default }, (raw) => raw || o.default)
  return env(name, o, { means: o.unset }, (raw) => raw)
}

function quoted(values: readonly string[]): string {
  // A long list reads better bare, and is already long enough without the value repeated.
  return values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(', ')}`
}

/** One of `values`; with `unset` instead of a default, unset is a state of its own, read as ''. */
export function choice<V extends string>(name: string, o: Doc & { values: readonly V[], default: V }): EnvSetting<V>
export function choice<V extends string>(name: string, o: Doc & Unset & { values: readonly V[] }): EnvSetting<V | ''>
export function choice<V extends string>(name: string, o: Doc & { values: readonly V[], default?: V, unset?: string }): EnvSetting<V | ''> {
  const fallback = o.default ?? ''
  const whenUnset = o.unset === undefined ? { value: fallback } : { means: o.unset }
  const expected = `${name} must be ${quoted(o.values)}${o.unset === undefined ? '' : ` (or unset for ${o.unset})`}`
  return env(name, o, whenUnset, (raw) => {
    const value = raw || fallback
    if (value !== '' && !(o.values as readonly string[]).includes(value)) {
      throw new ConfigError(o.values.length === 2 ? `${expected}, got "${value}"` : expected)
    }
    return value as V | ''
  }, o.values.join(', '))
}

/** A URL of one of `protocols` ('postgres:'…), kept as written; undefined when unset. */
export function url(name: string, o: Doc & Unset & { protocols: string[] }): EnvSetting<string | undefined> {
  return env(name, o, { means: o.unset }, (raw) => {
    if (!raw) return undefined
    let parsed: URL
    try {
      parsed = new URL(raw)
    } catch {
      // The value may hold a password: never echo it.
      throw new ConfigError(`${name} is not a valid URL`)
    }
    if (!o.protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${o.protocols.map((p) => p + '//').join(' or ')}`)
    return raw
  }, o.protocols.map((p) => p + '//…').join(', '))
}

/** A user:password@ in a value that should hold none is never repeated. */
export function withoutUserinfo(value: string): string {
  return value.replace(/\/\/[^/]*@/, '//…@')
}

/** Comma-separated items, each read by `item` (undefined: not one, said as "is not <expected>"). */
export function list(name: string, o: Doc & Unset & { expected: string, item: (raw: string) => string | undefined }): EnvSetting<string[]> {
  return env(name, o, { means: o.unset }, (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const value = o.item(s)
    if (value === undefined) throw new ConfigError(`${name}: "${withoutUserinfo(s)}" is not ${o.expected}`)
    return value
  }), `comma-separated, each ${o.expected}`)
}

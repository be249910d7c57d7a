// The one loader: every area's settings read from the environment and SERVICE_CONFIG_FILE, each value checked
// by its kind. It knows no area: src/config.ts composes the areas' schemas and passes them in.
import { CONFIG_FILE, fileProblem, readConfigFile } from './config-file.ts'
import type { EnvSetting, FileSetting, Setting } from './kinds.ts'

export type Schema = Record<string, Setting<unknown>>
export type Values<S extends Schema> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never }
export type Env = Record<string, string | undefined>

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** The areas' schemas as one. A name declared twice would silently hide one area's setting: a fault, said at once. */
export function compose<P extends Schema[]>(...parts: P): Intersection<P[number]> {
  const all: Schema = {}
  const sources = new Set<string>([CONFIG_FILE.env])
  for (const part of parts) {
    for (const [key, setting] of Object.entries(part)) {
      const source = setting.from === 'env' ? setting.env : `SERVICE_CONFIG_FILE key "${setting.key}"`
      if (Object.hasOwn(all, key) || sources.has(source)) throw new Error(`settings: ${key} (${source}) is declared twice`)
      all[key] = setting
      sources.add(source)
    }
  }
  return all as Intersection<P[number]>
}

/** Every environment variable of `schema`, the loader's own SERVICE_CONFIG_FILE included, in declaration order. */
export function envSettings(schema: Schema): EnvSetting<unknown>[] {
  return [...Object.values(schema).filter((s) => s.from === 'env'), CONFIG_FILE]
}

/** Reads `env` (blank counts as unset) and the config file; the first bad value throws a ConfigError naming it. */
export function readSettings<S extends Schema>(schema: S, env: Env): Values<S> {
  const values: Record<string, unknown> = {}
  const fromFile: [string, FileSetting<unknown>][] = []
  for (const [name, setting] of Object.entries(schema)) {
    if (setting.from === 'env') values[name] = setting.read((env[setting.env] ?? '').trim())
    else fromFile.push([name, setting])
  }
  const file = readConfigFile(CONFIG_FILE.read((env[CONFIG_FILE.env] ?? '').trim()), fromFile.map(([, s]) => s.key))
  for (const [name, s] of fromFile) values[name] = s.read(Object.hasOwn(file, s.key) ? file[s.key] : undefined, fileProblem)
  return values as Values<S>
}

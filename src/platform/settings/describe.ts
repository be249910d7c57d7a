// The settings as an operator reads them (`npm run cli -- configuracao`): each variable, what it is, what unset
// means and what it takes; then SERVICE_CONFIG_FILE's keys.
import type { WhenUnset } from './kinds.ts'
import { envSettings, type Schema } from './load.ts'

const WIDTH = 34

function unset(w: WhenUnset): string {
  return 'value' in w ? (w.value === '' ? 'unset: empty' : `default ${w.value}`) : `unset: ${w.means}`
}

export function describeSettings(schema: Schema): string {
  const lines = envSettings(schema).map((s) =>
    `${s.env.padEnd(WIDTH)}${s.description}\n${''.padEnd(WIDTH)}${[unset(s.whenUnset), s.accepts].filter(Boolean).join('; ')}`)
  const keys = Object.values(schema).flatMap((s) => s.from === 'file' ? [`  "${s.key}"`.padEnd(WIDTH) + s.description] : [])
  return [...lines, '', 'keys of the SERVICE_CONFIG_FILE (each optional):', ...keys].join('\n')
}

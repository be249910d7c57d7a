// Tool arguments are checked here, not by the SDK: the SDK refuses arguments that do not fit a tool's input schema
// before the tool's handler runs, so such a call would be answered without its audit row. Checked here, a bad
// call is one more refusal of runAudited (src/mcp/server.ts), with the API's own 422 items as its `detail`.
import { Ajv, type ValidateFunction } from 'ajv'
import { addEmailFormat, AJV_OPTIONS, fromAjv, type AjvError, type ValidationItem } from '../http/validation-errors.ts'
import type { JsonSchema } from './json-schema.ts'

type ArgumentCheck = (schema: JsonSchema, args: Record<string, unknown>) => ValidationItem[] | null

/** Compiles each schema on its first call (once per process: the tools' schemas are made at start and kept). */
export function makeArgumentCheck(): ArgumentCheck {
  let ajv: Ajv | undefined
  const compiled = new WeakMap<JsonSchema, ValidateFunction>()
  return (schema, args) => {
    let check = compiled.get(schema)
    if (!check) {
      if (!ajv) addEmailFormat(ajv = new Ajv({ ...AJV_OPTIONS }))
      compiled.set(schema, check = ajv.compile(schema))
    }
    if (check(args)) return null
    return fromAjv((check.errors ?? []) as AjvError[], 'body', args, Object.keys((schema.properties ?? {}) as object))
  }
}

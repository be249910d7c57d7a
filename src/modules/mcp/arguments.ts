// Tool arguments are checked here, not by the SDK: the SDK refuses arguments that do not fit a tool's input schema
// before the tool's handler runs, so such a call would be answered without its audit row. Checked here, a bad
// call is one more refusal of runAudited (src/modules/mcp/server.ts), with the API's own 422 items as its `detail`.
import { makeCheck, nulItems, type Checked } from '../../platform/http/validation-errors.ts'
import type { JsonSchema } from './json-schema.ts'

const checks = new WeakMap<JsonSchema, (input: unknown) => Checked<unknown>>()

/** The tools' schemas are made once at start and kept: one check each, compiled on its first call. */
export function checkArguments(schema: JsonSchema, args: Record<string, unknown>): Checked<unknown> {
  let check = checks.get(schema)
  if (!check) checks.set(schema, check = makeCheck(schema))
  const checked = check(args)
  // Text PostgreSQL cannot store is refused on its field, as the API's routes refuse it.
  const nul = checked.ok ? nulItems(args) : []
  return nul.length ? { ok: false, errors: nul } : checked
}

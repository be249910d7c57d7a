// `--cliente ID` of the operator's commands that read one customer's data (support): checked before any query, and
// a command prints nothing of a customer that does not exist rather than an empty answer that looks like one.
import { isUuid } from '../lib/uuid.ts'
import { UsageError } from './output.ts'

export function customerOption(value: string | undefined, command: string): string {
  if (value === undefined || value === '') throw new UsageError(`${command} needs --cliente ID`)
  if (!isUuid(value)) throw new UsageError(`"${value}" is not an id (a UUID like 0b5e8c1e-4f7a-4d2b-9c3e-2a1f6d8e7b90)`)
  return value.toLowerCase()
}

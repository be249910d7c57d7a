// What the credential commands (clientes, tokens, and later usuarios) share: the operator as the audited actor,
// ids checked before any query. The stores' refusals are rendered by runCli (refusals.ts), whatever command met them.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { OPERATOR, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import { parseOrUsage, UsageError, type CommandContext } from '../../../platform/cli/output.ts'

/** Each action of the CLI is the operator's, at the time it runs; there is no request or client address. */
export function operatorContext(ctx: CommandContext): ActionContext {
  return { actor: OPERATOR, now: ctx.clock.now() }
}

/** An id (UUID) from the command line: `missing` is the message when there is none. */
export function requireUuid(value: string | undefined, missing: string): string {
  if (value === undefined || value === '') throw new UsageError(missing)
  if (!isUuid(value)) throw new UsageError(`"${value}" is not an id (a UUID like 0b5e8c1e-4f7a-4d2b-9c3e-2a1f6d8e7b90)`)
  return value.toLowerCase()
}

/** parseArgs with --json and --help known to every subcommand; unknown options and extra words are usage errors. */
export function parseCommand<O extends ParseArgsConfig['options']>(args: string[], options: O, positionals = 0) {
  const all = { ...options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as O & JsonHelp
  const parsed = parseOrUsage(() => parseArgs({ args, options: all, allowPositionals: positionals > 0, strict: true }))
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected "${parsed.positionals[positionals]}"`)
  return parsed
}

type JsonHelp = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }

export const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString())

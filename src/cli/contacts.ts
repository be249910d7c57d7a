import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { purgePersonalData } from '../contact/retention.ts'
import { parseOrUsage, UsageError, type CommandContext } from './output.ts'

export const CONTACTS_HELP = `  contatos expurgar [--dias N] erase personal data of delivered contacts older than N days
                               (default CONTACT_RETENTION_DAYS, 365); audit rows are kept`

export async function contactsCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'expurgar') throw new UsageError(sub ? `unknown subcommand "contatos ${sub}"` : 'contatos needs a subcommand')
  const { values } = parseOrUsage(() => parseArgs({ args: rest, options: { dias: { type: 'string' } } }))
  const days = values.dias === undefined ? ctx.config.mail.retentionDays : Number(values.dias)
  if (!Number.isInteger(days) || days < 1) throw new UsageError('--dias must be a whole number of days, 1 or more')
  const n = await purgePersonalData((await ctx.open()).orm, days, ctx.clock.now(), join(ctx.config.dataDir, 'mail'))
  ctx.out.log(`erased the personal data of ${n} contact${n === 1 ? '' : 's'} older than ${days} days`)
  return 0
}

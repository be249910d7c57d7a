import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { listContacts, type ContactSummary } from './listing.ts'
import { purgePersonalData } from './retention.ts'
import { parseOrUsage, tableRow, UsageError, type CommandContext } from '../../platform/cli/output.ts'
import { instantWithOffset } from '../../platform/lib/brasilia-time.ts'

export const CONTACTS_HELP = `  contatos listar [--spam] [--desde DATA] [--limite N] [--json]
                               recent contacts, newest first: protocolo, time (Brasília), subject,
                               delivery state, spam reason; --spam: only spam; DATA: AAAA-MM-DD (from
                               that day, Brasília) or an ISO date-time; N: 1 to 10000 (default 50)
  contatos expurgar [--dias N] erase personal data of delivered contacts older than N days
                               (default CONTACT_RETENTION_DAYS, 365); audit rows are kept`

const LIST_OPTIONS = {
  spam: { type: 'boolean' }, desde: { type: 'string' }, limite: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const

export async function contactsCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === '--help' || sub === '-h' || (sub && rest.some((a) => a === '--help' || a === '-h'))) {
    ctx.out.log(`Usage: npm run cli -- contatos <subcommand> [options]\n\n${CONTACTS_HELP}`)
    return 0
  }
  if (sub === 'listar') return list(rest, ctx)
  if (sub !== 'expurgar') throw new UsageError(sub ? `unknown subcommand "contatos ${sub}"` : 'contatos needs a subcommand')
  const { values } = parseOrUsage(() => parseArgs({ args: rest, options: { dias: { type: 'string' } } }))
  const days = values.dias === undefined ? ctx.config.mail.retentionDays : Number(values.dias)
  if (!Number.isInteger(days) || days < 1) throw new UsageError('--dias must be a whole number of days, 1 or more')
  const n = await purgePersonalData((await ctx.open()).orm, days, ctx.clock.now(), join(ctx.config.dataDir, 'mail'))
  ctx.out.log(`erased the personal data of ${n} contact${n === 1 ? '' : 's'} older than ${days} days`)
  return 0
}

// Only what an operator needs to follow a contact or watch spam: no name, e-mail, phone or message. A
// listing ends up in terminals, scrollback and tickets; the protocolo leads to the row when a person asks.
async function list(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseOrUsage(() => parseArgs({ args: argv, options: LIST_OPTIONS, allowPositionals: false }))
  const since = values.desde === undefined ? undefined : parseSince(values.desde)
  const limit = values.limite === undefined ? 50 : /^\d+$/.test(values.limite) ? Number(values.limite) : NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError(`--limite must be a whole number from 1 to 10000, got "${values.limite}"`)
  const rows = await listContacts((await ctx.open()).orm, { spamOnly: values.spam, since, limit })
  if (values.json) {
    ctx.out.log(JSON.stringify(rows.map((r) => ({
      protocolo: r.protocolo, criado_em: r.criadoEm.toISOString(), assunto: r.assunto, entrega: r.entrega, spam: r.spam, dados_apagados: r.dadosApagados,
    }))))
    return 0
  }
  if (rows.length === 0) {
    ctx.out.log(values.spam ? 'no spam' : 'no contacts')
    return 0
  }
  ctx.out.log(tableRow(['PROTOCOLO', 'RECEBIDO (BRASÍLIA)', 'ASSUNTO', 'ENTREGA', 'SPAM']))
  for (const r of rows) ctx.out.log(line(r))
  return 0
}

function line(r: ContactSummary): string {
  const entrega = r.entrega ?? '-'
  return tableRow([r.protocolo, instantWithOffset(r.criadoEm), r.assunto, r.dadosApagados ? `${entrega} (dados apagados)` : entrega, r.spam ?? '-'])
}


/** A day (its start in Brasília) or a full ISO date-time with a zone; anything else is a usage error. */
function parseSince(raw: string): Date {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw)
  const d = day ? new Date(`${raw}T00:00:00-03:00`) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? new Date(raw) : undefined
  // A day that does not exist (2026-02-30) is not rolled over into the next month.
  if (!d || Number.isNaN(d.getTime()) || (day && instantWithOffset(d).slice(0, 10) !== raw)) {
    throw new UsageError(`--desde must be a date (AAAA-MM-DD) or an ISO date-time with a zone (2026-11-23T08:00:00-03:00), got "${raw}"`)
  }
  return d
}

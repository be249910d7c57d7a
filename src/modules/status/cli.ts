import { parseArgs } from 'node:util'
import { declareWindow, endWindow, isInProgress, openWindows, type Window } from './maintenance.ts'
import { instantWithOffset } from '../../platform/lib/brasilia-time.ts'
import { parseOrUsage, shown, UsageError, type CommandContext } from '../../platform/cli/output.ts'

export const MAINTENANCE_HELP = `  manutencao declarar [--inicio ISO] [--fim ISO] [--mensagem TEXTO]
                               declare a maintenance window (no --inicio: it starts now, unannounced)
  manutencao listar            windows not yet ended or over
  manutencao encerrar ID       end a window now`

type Ctx = CommandContext

export async function maintenanceCommand(argv: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'declarar': return declare(rest, ctx)
    case 'listar': return list(ctx)
    case 'encerrar': return end(rest, ctx)
    default: throw new UsageError(sub ? `unknown subcommand "manutencao ${sub}"` : 'manutencao needs a subcommand')
  }
}

async function declare(argv: string[], { open, out, clock }: Ctx): Promise<number> {
  const { values } = parseOrUsage(() => parseArgs({
    args: argv, options: { inicio: { type: 'string' }, fim: { type: 'string' }, mensagem: { type: 'string' } },
  }))
  // Without --inicio the window starts now: an emergency, so not `anunciada`.
  const inicio = parseTime('--inicio', values.inicio) ?? clock.now()
  const fim = parseTime('--fim', values.fim)
  const w = await declareWindow((await open()).orm, { inicio, fim, mensagem: values.mensagem ?? null }, clock.now())
  out.log(`declared window ${w.id}: ${describe(w, clock.now())}`)
  return 0
}

async function list({ open, out, clock }: Ctx): Promise<number> {
  const now = clock.now()
  const windows = await openWindows((await open()).orm, now)
  if (windows.length === 0) out.log('no open maintenance windows')
  for (const w of windows) out.log(`${w.id}\t${describe(w, now)}`)
  return 0
}

async function end(argv: string[], { open, out, clock }: Ctx): Promise<number> {
  const id = Number(argv[0])
  if (!Number.isInteger(id) || id <= 0) throw new UsageError('manutencao encerrar needs the window id (see manutencao listar)')
  const w = await endWindow((await open()).orm, id, clock.now())
  if (!w) {
    out.error(`error: no open window ${id}`)
    return 1
  }
  out.log(`ended window ${id}`)
  return 0
}

function parseTime(flag: string, value: string | undefined): Date | null {
  if (value === undefined) return null
  const d = new Date(value)
  // Only full ISO 8601 date-times with a zone: a bare date or local time would be read in the server's zone.
  if (Number.isNaN(d.getTime()) || !/T.*(Z|[+-]\d\d:?\d\d)$/.test(value)) {
    throw new UsageError(`${flag} must be an ISO 8601 date-time with a zone, like 2026-12-01T02:00:00-03:00`)
  }
  return d
}

function describe(w: Window, now: Date): string {
  const when = `${w.inicio ? instantWithOffset(w.inicio) : '(already started)'} → ${w.fim ? instantWithOffset(w.fim) : '(until ended)'}`
  return `${when}${isInProgress(w, now) ? ' [in progress]' : ''}${w.mensagem ? ` "${shown(w.mensagem)}"` : ''}`
}

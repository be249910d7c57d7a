// `iof`: the IOF table the service prices with. `listar` shows every row and its source; `adicionar` adds a row
// when the rules change (never an edit: a row starts after the profile's latest one, and ends the day before the
// next one starts).
import { parseArgs } from 'node:util'
import { parseOrUsage, tableRow, UsageError, type CommandContext } from '../../../platform/cli/output.ts'
import { addIofRate, iofRowJson, iofTable } from './store.ts'

export const IOF_HELP = `  iof listar [--json]          the IOF/Crédito rates by profile (pj, pj_simples, pf), each with its start,
                               its end (the day before the next row) and its source
  iof adicionar --perfil P --inicio AAAA-MM-DD --taxa-diaria 0.000082 --taxa-adicional 0.0038 --fonte TEXTO
                               a row for new rules: it starts after the profile's latest row, and rates are
                               fractions (0.000082 is 0.0082 % a day); rows are never changed`

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const RATE = /^0(\.\d{1,12})?$/

export async function iofCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'listar': return list(rest, ctx)
    case 'adicionar': return add(rest, ctx)
    default: throw new UsageError(sub ? `unknown subcommand "iof ${sub}"` : 'iof needs a subcommand')
  }
}

async function list(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseOrUsage(() => parseArgs({ args: argv, options: { json: { type: 'boolean' } } }))
  const rows = await iofTable((await ctx.open()).orm)
  if (values.json) {
    ctx.out.log(JSON.stringify(rows.map(iofRowJson)))
    return 0
  }
  ctx.out.log(tableRow(['PERFIL', 'INÍCIO', 'FIM', 'DIÁRIA', 'ADICIONAL', 'FONTE']))
  for (const r of rows) ctx.out.log(tableRow([r.perfil, r.vigenciaInicio, r.vigenciaFim ?? '-', r.taxaDiaria, r.taxaAdicional, r.fonte]))
  return 0
}

async function add(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseOrUsage(() => parseArgs({
    args: argv,
    options: {
      perfil: { type: 'string' }, inicio: { type: 'string' }, fonte: { type: 'string' },
      'taxa-diaria': { type: 'string' }, 'taxa-adicional': { type: 'string' },
    },
  }))
  const perfil = values.perfil
  if (perfil !== 'pj' && perfil !== 'pj_simples' && perfil !== 'pf') throw new UsageError('iof adicionar needs --perfil pj, pj_simples or pf')
  // A calendar day: the pattern, and the day itself (2031-02-30 is none).
  if (!values.inicio || !DAY.test(values.inicio) || new Date(`${values.inicio}T00:00:00Z`).toISOString().slice(0, 10) !== values.inicio) {
    throw new UsageError('iof adicionar needs --inicio as a day, AAAA-MM-DD')
  }
  for (const flag of ['taxa-diaria', 'taxa-adicional'] as const) {
    if (!values[flag] || !RATE.test(values[flag])) throw new UsageError(`iof adicionar needs --${flag} as a fraction below 1 with up to 12 decimals (0.0038)`)
  }
  const fonte = values.fonte?.trim() ?? ''
  if (fonte.length < 5) throw new UsageError('iof adicionar needs --fonte: the act that sets the rates (a decree and its date)')
  const done = await addIofRate((await ctx.open()).orm, {
    perfil, vigenciaInicio: values.inicio, taxaDiaria: values['taxa-diaria']!, taxaAdicional: values['taxa-adicional']!, fonte,
  })
  if (done !== 'added') {
    ctx.out.error(`error: ${perfil}'s latest row starts on ${done.latest}: a new row starts after it (rows are never changed)`)
    return 1
  }
  ctx.out.log(`added: ${perfil} from ${values.inicio}, ${values['taxa-diaria']} a day and ${values['taxa-adicional']} additional`)
  return 0
}

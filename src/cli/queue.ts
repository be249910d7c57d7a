import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { renderContactMail } from '../modules/contact/index.ts'
import type { Config } from '../config.ts'
import { emailOf } from '../platform/outbox/email.ts'
import { ESTADOS, listQueue, requeue, showMessage, type Estado, type OwnMailboxes } from '../platform/outbox/queue-admin.ts'
import { purgeExpiredContent } from '../platform/outbox/retention.ts'
import { mailTransportFor } from '../platform/outbox/transport.ts'
import { emailProblem } from '../platform/lib/email-address.ts'
import { instantWithOffset as at } from '../platform/lib/brasilia-time.ts'
import { parseOrUsage, tableRow, shown, UsageError, type CommandContext } from '../platform/cli/output.ts'

export const QUEUE_HELP = `  fila listar [--estado E]     the delivery queue (default: pendente, enviando, falhou); E is one of
                               ${ESTADOS.join(', ')}; each message's kind (contato, convite) and
                               recipient (a person's by its domain only; the subjects' mailboxes whole)
  fila mostrar PROTOCOLO       one message: its state, every attempt and its error
  fila reenfileirar PROTOCOLO… | --falhas
                               send failed messages again (fresh tries, due now); an invitation only
                               before it expires
  fila expurgar                erase now the content of expired messages (the server does it hourly)`

export const MAIL_HELP = `  email testar ENDERECO        send a test e-mail through the configured transport now`

export async function queueCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  const { out } = ctx
  switch (sub) {
    case 'listar': {
      const { values } = parseOrUsage(() => parseArgs({ args: rest, options: { estado: { type: 'string' } } }))
      if (values.estado !== undefined && !ESTADOS.includes(values.estado as Estado)) throw new UsageError(`--estado must be one of ${ESTADOS.join(', ')}`)
      const rows = await listQueue((await ctx.open()).orm, ownMailboxes(ctx.config), values.estado as Estado | undefined)
      if (rows.length === 0) out.log('queue is empty')
      for (const r of rows) {
        const next = r.estado === 'pendente' ? ` next ${at(r.proximaTentativaEm)}` : ''
        // The kind is inserted after the state and tries, which keep the places scripts already read them from.
        out.log(tableRow([r.protocolo, r.estado, `${tries(r.tentativas)}${next}`, r.tipo, r.destino, ...(r.ultimoErro ? [r.ultimoErro] : [])]))
      }
      return 0
    }
    case 'mostrar': {
      const protocolo = rest[0]
      if (!protocolo) throw new UsageError('fila mostrar needs a protocolo')
      const found = await showMessage((await ctx.open()).orm, ownMailboxes(ctx.config), protocolo)
      if (!found) {
        out.error(`error: no message ${protocolo}`)
        return 1
      }
      const { row, attempts } = found
      out.log(`${row.protocolo}: ${row.tipo}, ${row.estado}, ${tries(row.tentativas)}, to ${shown(row.destino)}, queued ${at(row.criadoEm)}`)
      if (row.enviadoEm) out.log(`delivered ${at(row.enviadoEm)} as ${row.messageId}`)
      if (row.estado === 'pendente') out.log(`next try ${at(row.proximaTentativaEm)}`)
      if (row.expiraEm) out.log(`expires ${at(row.expiraEm)}${row.conteudoApagadoEm ? `; content erased ${at(row.conteudoApagadoEm)}` : ''}`)
      for (const a of attempts) out.log(`  ${at(a.em)}  ${a.resultado}${a.codigoSmtp ? ` ${a.codigoSmtp}` : ''}${a.erro ? `  ${shown(a.erro)}` : ''}`)
      return 0
    }
    case 'reenfileirar': {
      const { values, positionals } = parseOrUsage(() => parseArgs({ args: rest, options: { falhas: { type: 'boolean' } }, allowPositionals: true }))
      if (!values.falhas && positionals.length === 0) throw new UsageError('fila reenfileirar needs protocolos or --falhas')
      const done = await requeue((await ctx.open()).orm, values.falhas ? 'falhas' : { protocolos: positionals }, ctx.clock.now())
      out.log(done.length ? `re-queued ${done.length}: ${done.join(', ')}` : 'no failed message matched')
      return done.length || values.falhas ? 0 : 1
    }
    case 'expurgar': {
      if (rest.length) throw new UsageError('fila expurgar takes no arguments')
      const n = await purgeExpiredContent((await ctx.open()).orm, ctx.clock.now(), join(ctx.config.dataDir, 'mail'))
      out.log(`erased the content of ${n} expired message${n === 1 ? '' : 's'}`)
      return 0
    }
    default:
      throw new UsageError(sub ? `unknown subcommand "fila ${sub}"` : 'fila needs a subcommand')
  }
}

const tries = (n: number) => `${n} ${n === 1 ? 'try' : 'tries'}`

/** The service's own mailboxes, which the listings show whole: the contact subjects'. */
const ownMailboxes = (config: Pick<Config, 'subjects'>): OwnMailboxes => new Set(config.subjects.map((s) => s.email.toLowerCase()))

export async function mailCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, address] = argv
  if (sub !== 'testar') throw new UsageError(sub ? `unknown subcommand "email ${sub}"` : 'email needs a subcommand')
  const problem = address === undefined ? 'email testar needs an address' : emailProblem(address)
  if (problem) throw new UsageError(problem)
  const { config, clock, out } = ctx
  const transport = mailTransportFor(config)
  try {
    const now = clock.now()
    const protocolo = `TESTE-${now.getTime()}`
    const test = renderContactMail({
      protocolo, criadoEm: now, assunto: 'teste', rotulo: 'Teste do canal de e-mail', requestId: 'cli',
      nome: 'Operador', email: address!, mensagem: 'Mensagem de teste enviada pela linha de comando.', empresa: '', telefone: '', site: '',
    })
    const { subject, text, html = null, headers = null } = test
    const parts = { protocolo, destino: address!, criadoEm: now, requestId: 'cli', subject, text, html, headers }
    await transport.send(emailOf(parts, config.mailFrom), protocolo)
    out.log(transport.mode === 'smtp' ? `sent to ${address} through SMTP` : `sandbox: kept in ${config.dataDir}/mail/${protocolo}.eml, not sent`)
    return 0
  } finally {
    transport.close()
  }
}

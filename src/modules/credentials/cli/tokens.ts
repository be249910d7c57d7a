// `tokens`: personal access tokens issued through the commercial channel. The secret is printed once, by
// `tokens criar`, and never again; listings show everything else. Each action is the operator's, audited.
import { instantWithOffset } from '../../../platform/lib/brasilia-time.ts'
import { parseScopes, SCOPES } from '../scopes.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { tokenJson, tokenState } from '../tokens/json.ts'
import { createToken, customerOfToken, getToken, listTokens, revokeToken, TOKEN_MAX_DAYS } from '../tokens/store.ts'
import { isoOrNull, operatorContext, parseCommand, requireUuid } from './operator.ts'
import { tableRow, shown, UsageError, type CommandContext } from '../../../platform/cli/output.ts'

export const TOKENS_HELP = `  tokens criar --cliente ID --nome NOME --escopos ${SCOPES.join(',')} --expira-em 30d [--dpop-jkt=THUMBPRINT] [--json]
                               a personal access token of the customer; --expira-em: days (30d) or
                               hours (12h), at most ${TOKEN_MAX_DAYS} days; --dpop-jkt binds it to a key (its RFC 7638
                               SHA-256 thumbprint, base64url): then only DPoP proofs of that key are
                               accepted with it (write it with '=': a thumbprint may begin with '-').
                               The token is printed once, never again
  tokens listar --cliente ID [--json]
                               the customer's tokens: name, scopes, expiry, last use, bound or not, state
  tokens revogar ID [--json]   revoke a token now, for good`

export async function tokensCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'criar': return create(rest, ctx)
    case 'listar': return list(rest, ctx)
    case 'revogar': return revoke(rest, ctx)
    default: throw new UsageError(sub ? `unknown subcommand "tokens ${sub}"` : 'tokens needs a subcommand')
  }
}

async function create(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, {
    cliente: { type: 'string' }, nome: { type: 'string' }, escopos: { type: 'string' }, 'expira-em': { type: 'string' }, 'dpop-jkt': { type: 'string' },
  })
  const clienteId = requireUuid(values.cliente, 'tokens criar needs --cliente ID')
  if (values.nome === undefined) throw new UsageError('tokens criar needs --nome')
  if (values.escopos === undefined) throw new UsageError(`tokens criar needs --escopos (some of ${SCOPES.join(', ')})`)
  if (values['expira-em'] === undefined) throw new UsageError('tokens criar needs --expira-em (30d, 12h…)')
  const action = operatorContext(ctx)
  const input = {
    clienteId, usuarioId: null, nome: values.nome, escopos: parseScopes(values.escopos!),
    expiraEm: expiryFrom(values['expira-em'], action.now), dpopJkt: values['dpop-jkt'] ?? null,
  }
  const { token, info } = await withTenant(await ctx.open(), clienteId, (tx) => createToken(tx, input, action))
  if (values.json) {
    ctx.out.log(JSON.stringify({ id: info.id, token, expira_em: info.expiraEm.toISOString() }))
    return 0
  }
  ctx.out.log(`id: ${info.id}`)
  ctx.out.log(`token: ${token}`)
  ctx.out.log(`expira_em: ${instantWithOffset(info.expiraEm)}`)
  ctx.out.log('The token is shown only this once: give it to the customer now, over a channel fit for a password.')
  return 0
}

async function list(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, { cliente: { type: 'string' } })
  const clienteId = requireUuid(values.cliente, 'tokens listar needs --cliente ID')
  const now = ctx.clock.now()
  const rows = await withTenant(await ctx.open(), clienteId, (tx) => listTokens(tx, clienteId))
  if (values.json) {
    ctx.out.log(JSON.stringify(rows.map((t) => tokenJson(t, now))))
    return 0
  }
  if (rows.length === 0) {
    ctx.out.log('no tokens')
    return 0
  }
  ctx.out.log(tableRow(['ID', 'NOME', 'ESCOPOS', 'EXPIRA (BRASÍLIA)', 'ÚLTIMO USO', 'DPOP', 'ESTADO']))
  for (const t of rows) {
    const lastUse = t.ultimoUsoEm ? `${instantWithOffset(t.ultimoUsoEm)} ${t.ultimoUsoIp ?? ''}`.trim() : '-'
    ctx.out.log(tableRow([t.id, t.nome, t.escopos.join(','), instantWithOffset(t.expiraEm), lastUse, t.dpopJkt ? 'sim' : 'não', tokenState(t, now)]))
  }
  return 0
}

async function revoke(argv: string[], ctx: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(argv, {}, 1)
  const tokenId = requireUuid(positionals[0], 'tokens revogar needs the token\'s id (see tokens listar)')
  const db = await ctx.open()
  // The only step that spans customers: which one the token is of (SECURITY DEFINER, one id for one id).
  const clienteId = await customerOfToken(db.orm, tokenId)
  if (!clienteId) {
    ctx.out.error(`error: no token ${tokenId}`)
    return 1
  }
  const action = operatorContext(ctx)
  const { outcome, info } = await withTenant(db, clienteId, async (tx) => {
    const outcome = await revokeToken(tx, { clienteId, tokenId }, action)
    return { outcome, info: await getToken(tx, clienteId, tokenId) }
  })
  if (values.json) ctx.out.log(JSON.stringify({ id: tokenId, revogado_em: isoOrNull(info?.revogadoEm ?? null), alterado: outcome === 'revoked' }))
  else if (outcome === 'revoked') ctx.out.log(`revoked token ${tokenId} (${shown(info?.nome ?? '')})`)
  else ctx.out.log(`token ${tokenId} was revoked already, ${info?.revogadoEm ? instantWithOffset(info.revogadoEm) : ''}: nothing changed`)
  return 0
}

/** `30d` or `12h` from now; whole numbers only, so a typo is not read as a year. */
function expiryFrom(text: string, now: Date): Date {
  const m = /^(\d{1,4})([dh])$/.exec(text.trim())
  const amount = m ? Number(m[1]) : 0
  if (!m || amount < 1) throw new UsageError(`--expira-em must be a number of days or hours, like 30d or 12h, got "${text}"`)
  return new Date(now.getTime() + amount * (m[2] === 'd' ? 86_400_000 : 3_600_000))
}

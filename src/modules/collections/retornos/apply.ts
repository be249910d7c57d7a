// Applying a retorno's lines (issue 33): each pending line, in the file's order, moves its charge, its título and the
// ledger in the transaction that marks it applied, so a line is applied whole or not at all and a run stopped
// anywhere resumes at the first line still pending. Lines go in batches, one transaction each, under a lock of the
// file (one applier at a time: a bounced cheque must come after the payment it undoes). A batch that fails is
// applied again line by line, and a line that fails alone is kept as ignored (`erro_interno`) and logged, so one bad
// line never stops a file.
import { sql } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { addDays } from '../../calendar/index.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { postEntry, reversed, type EntryLine } from '../../ledger/index.ts'
import type { Ocorrencia } from '../cnab/ocorrencias.ts'
import { instructionConfirmed } from '../instructions/effects.ts'
import { custos, liquidacao } from './lancamento.ts'
import { IGNORADA, type MotivoIgnorada } from './ignored.ts'

export interface ApplyDeps {
  db: Pick<Database, 'orm'>
  /** Where a line that failed alone is reported (its error, never the line's amounts). */
  onLineError?: (err: unknown, where: { retornoId: string, linha: number }) => void
}

const LIQUIDACOES: readonly Ocorrencia[] = ['liquidacao', 'liquidacao_apos_baixa', 'liquidacao_cheque_pendente']
const ESTORNOS: readonly Ocorrencia[] = ['cheque_devolvido', 'estorno_liquidacao']

type Pending = {
  linha: number, conta_cobranca_id: string, codigo: string, ocorrencia: Ocorrencia, nosso_numero: string, sequencia: string,
  data_ocorrencia: string | null, data_credito: string | null, motivos: string, pago: string, juros_multa: string, desconto: string, abatimento: string,
  tarifa: string, outras_despesas: string, outros_creditos: string
}

type Charge = {
  id: string, numero: string, estado: string, titulo_id: string, titulo_numero: string, titulo_estado: string, saldo: string, cedente_id: string,
  desagio_pendente: string, desconto_max: string, abatimento_max: string, abatimento_lancado: string, criada: string, valor: string
}

type Outcome =
  | { resultado: 'ignorada', motivo: MotivoIgnorada, detalhe: string, cobrancaId?: string, tituloId?: string }
  | { resultado: 'aplicada', cobrancaId: string, tituloId: string, lancamentoId: string | null, principal?: bigint, desagio?: bigint, detalhe?: string }

const ignored = (motivo: MotivoIgnorada, detalhe: string, c?: Charge): Outcome =>
  ({ resultado: 'ignorada', motivo, detalhe, ...(c ? { cobrancaId: c.id, tituloId: c.titulo_id } : {}) })

const PENDING_COLUMNS = sql`linha, conta_cobranca_id, codigo, ocorrencia, nosso_numero, sequencia, data_ocorrencia::text AS data_ocorrencia,
  data_credito::text AS data_credito, array_to_string(motivos, ' ') AS motivos, pago_centavos::text AS pago, juros_multa_centavos::text AS juros_multa,
  desconto_centavos::text AS desconto, abatimento_centavos::text AS abatimento, tarifa_centavos::text AS tarifa,
  outras_despesas_centavos::text AS outras_despesas, outros_creditos_centavos::text AS outros_creditos`

async function chargeOf(tx: Orm, l: Pending): Promise<Charge | undefined> {
  const [c] = await queryRows<Charge>(tx, sql`SELECT c.id, c.numero::text AS numero, c.estado, c.titulo_id, t.numero AS titulo_numero,
      t.estado AS titulo_estado, t.saldo_centavos::text AS saldo, t.cedente_id,
      (coalesce(t.desagio_centavos, 0) - t.desagio_apropriado_centavos)::text AS desagio_pendente, c.desconto_valor_centavos::text AS desconto_max,
      a.pedido::text AS abatimento_max, a.lancado::text AS abatimento_lancado, (c.criado_em AT TIME ZONE 'America/Sao_Paulo')::date::text AS criada,
      c.valor_centavos::text AS valor
    FROM cobrancas c JOIN titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
    -- The abatimentos the charge's instructions asked (sent or confirmed), and those already posted on confirmation.
    CROSS JOIN LATERAL (SELECT coalesce(sum(i.abatimento_centavos) FILTER (WHERE i.estado IN ('enviada', 'confirmada')), 0) AS pedido,
        coalesce(sum(i.abatimento_centavos) FILTER (WHERE i.lancamento_id IS NOT NULL), 0) AS lancado
      FROM cobranca_instrucoes i WHERE i.cliente_id = c.cliente_id AND i.cobranca_id = c.id AND i.instrucao = 'abatimento') a
    WHERE c.conta_cobranca_id = ${l.conta_cobranca_id}::uuid AND c.nosso_numero = ${l.sequencia}
    FOR UPDATE OF c, t`)
  return c
}

/**
 * The line that applied this occurrence already (any file of the account): its file's NSA and line. Asked by the
 * charge (the account's nosso número names one charge), whose index holds a handful of lines: asked by the
 * occurrence's own columns, the planner took an index of all the customer's applied lines and read them through.
 */
async function appliedBefore(tx: Orm, l: Pending, cobrancaId: string): Promise<{ nsa: string, linha: number } | undefined> {
  const [row] = await queryRows<{ nsa: string, linha: number }>(tx, sql`SELECT r.nsa, x.linha FROM retorno_linhas x
      JOIN retornos r ON r.cliente_id = x.cliente_id AND r.id = x.retorno_id
    WHERE x.cobranca_id = ${cobrancaId}::uuid AND x.resultado = 'aplicada' AND x.conta_cobranca_id = ${l.conta_cobranca_id}::uuid
      AND x.sequencia = ${l.sequencia} AND x.codigo = ${l.codigo}
      AND coalesce(x.data_ocorrencia, DATE '0001-01-01') = coalesce(${l.data_ocorrencia}::date, DATE '0001-01-01')
    LIMIT 1`)
  return row
}

const setCharge = (tx: Orm, id: string, estado: string, now: Date, resposta?: unknown) => tx.execute(sql`UPDATE cobrancas SET estado = ${estado},
    ${resposta === undefined ? sql`` : sql`banco_resposta = ${JSON.stringify(resposta)}::jsonb,`} atualizado_em = ${now.toISOString()}::timestamptz
  WHERE id = ${id}::uuid`)

interface LineContext { clienteId: string, retornoId: string, nsa: string, hoje: string, now: Date }

async function post(tx: Orm, x: LineContext, data: string | null, historico: string, linhas: EntryLine[] | undefined): Promise<string | null> {
  if (!linhas) return null
  const origem = { tipo: 'retorno' as const, id: x.retornoId }
  return postEntry(tx, { clienteId: x.clienteId, data: data ?? x.hoje, historico, origem, requestId: null, linhas }, x.now)
}

const money = (l: Pending) => ({
  pagoCentavos: BigInt(l.pago), jurosMultaCentavos: BigInt(l.juros_multa), descontoCentavos: BigInt(l.desconto), abatimentoCentavos: BigInt(l.abatimento),
  tarifaCentavos: BigInt(l.tarifa), outrasDespesasCentavos: BigInt(l.outras_despesas), outrosCreditosCentavos: BigInt(l.outros_creditos),
})

/**
 * How many times its value a boleto's payment may be before it is held for a person to check with the bank: a sacado
 * pays twice, or years late with juros, never a hundred times (red team: one line of R$ 99,999,999,999.99 on a
 * R$ 10,000.00 charge was posted whole).
 */
export const PAGO_MAXIMO_VEZES_O_VALOR = 10n

/**
 * What a liquidation may not claim: a discount the boleto did not grant, an abatimento no instruction asked, a fee
 * above the payment, a payment out of proportion to the boleto.
 */
function inconsistency(l: Pending, c: Charge): string | undefined {
  const v = money(l)
  if (v.pagoCentavos > PAGO_MAXIMO_VEZES_O_VALOR * BigInt(c.valor)) {
    return `pago ${v.pagoCentavos} centavos, mais de ${PAGO_MAXIMO_VEZES_O_VALOR} vezes o valor do boleto (${c.valor}): confira com o banco`
  }
  if (v.descontoCentavos > BigInt(c.desconto_max)) return `desconto de ${v.descontoCentavos} centavos, e o boleto concede ${c.desconto_max}`
  if (v.abatimentoCentavos > BigInt(c.abatimento_max)) return `abatimento de ${v.abatimentoCentavos} centavos, e as instruções pediram ${c.abatimento_max}`
  if (v.tarifaCentavos + v.outrasDespesasCentavos > v.pagoCentavos) return 'a tarifa e as despesas passam do valor pago'
  return undefined
}

async function settle(tx: Orm, x: LineContext, l: Pending, c: Charge): Promise<Outcome> {
  const wrong = inconsistency(l, c)
  if (wrong) return ignored('valores_inconsistentes', wrong, c)
  const open = c.titulo_estado === 'adquirido'
  // An abatimento posted when its instruction was confirmed has lowered the balance already: the payment's report of it is not posted again.
  const v = money(l)
  const posted = BigInt(c.abatimento_lancado)
  const made = liquidacao({ ...v, abatimentoCentavos: v.abatimentoCentavos > posted ? v.abatimentoCentavos - posted : 0n }, {
    cedenteId: c.cedente_id, saldoCentavos: open ? BigInt(c.saldo) : 0n, desagioPendenteCentavos: BigInt(c.desagio_pendente),
  })
  if (!made) return ignored('valores_inconsistentes', 'os juros, a multa e os outros créditos passam do que foi pago com o desconto e o abatimento', c)
  const entry = await post(tx, x, l.data_credito ?? l.data_ocorrencia,
    `Retorno ${x.nsa}: liquidação da cobrança nº ${c.numero}, título ${c.titulo_numero}`, made.linhas)
  if (made.principalCentavos > 0n || made.quitado) {
    await tx.execute(sql`UPDATE titulos SET saldo_centavos = saldo_centavos - ${made.principalCentavos.toString()}::bigint,
        estado = CASE WHEN ${made.quitado} THEN 'liquidado' ELSE estado END,
        desagio_apropriado_centavos = desagio_apropriado_centavos + ${made.desagioReconhecidoCentavos.toString()}::bigint,
        atualizado_em = ${x.now.toISOString()}::timestamptz
      WHERE id = ${c.titulo_id}::uuid`)
  }
  const before = c.estado
  await setCharge(tx, c.id, 'liquidada', x.now)
  // A second payment of a boleto happens (the sacado pays twice): applied, its money waiting to be identified, and said.
  const detalhe = before === 'liquidada' || !open ? 'a cobrança já estava liquidada ou o título encerrado: o valor ficou em valores a identificar'
    : made.sobraCentavos > 0n ? `pago acima do saldo: ${made.sobraCentavos} centavos em valores a identificar` : undefined
  return { resultado: 'aplicada', cobrancaId: c.id, tituloId: c.titulo_id, lancamentoId: entry, principal: made.principalCentavos,
    desagio: made.desagioReconhecidoCentavos, ...(detalhe ? { detalhe } : {}) }
}

/** A bounced cheque or the bank's reversal: the charge's last liquidation not yet undone, undone exactly. */
async function undo(tx: Orm, x: LineContext, l: Pending, c: Charge): Promise<Outcome> {
  type Last = { retorno_id: string, linha: number, lancamento_id: string | null, principal: string, desagio: string, custos: string }
  const [last] = await queryRows<Last>(tx, sql`
    SELECT retorno_id, linha, lancamento_id, principal_centavos::text AS principal, desagio_reconhecido_centavos::text AS desagio,
           (tarifa_centavos + outras_despesas_centavos)::text AS custos FROM retorno_linhas
     WHERE cobranca_id = ${c.id}::uuid AND resultado = 'aplicada' AND ocorrencia IN (${sql.join(LIQUIDACOES.map((o) => sql`${o}`), sql`, `)})
       AND estornada_em IS NULL
     ORDER BY aplicada_em DESC, linha DESC LIMIT 1 FOR UPDATE`)
  if (!last) return ignored('sem_liquidacao', 'a cobrança não tem liquidação aplicada a desfazer', c)
  // A título bought back or written off after its payment has left the cedente's and the buyer's accounts settled on
  // it: the bounced payment is theirs to sort out by hand, not a balance to reopen.
  if (c.titulo_estado !== 'liquidado' && c.titulo_estado !== 'adquirido') {
    return ignored('estado_da_cobranca', `o título está ${c.titulo_estado}: o estorno da liquidação é lançado à mão`, c)
  }
  const lines = last.lancamento_id
    ? await queryRows<{ conta: EntryLine['conta'], cedente_id: string | null, debito: string, credito: string }>(tx, sql`SELECT conta, cedente_id,
        debito_centavos::text AS debito, credito_centavos::text AS credito FROM lancamento_linhas WHERE lancamento_id = ${last.lancamento_id}::uuid`)
    : []
  // The payment comes back whole; the bank's fee for it stays paid (the bank did its part), and this line's own fee is added.
  const back = netted([
    ...reversed(lines.map((r) => ({ conta: r.conta, cedenteId: r.cedente_id, debito: BigInt(r.debito), credito: BigInt(r.credito) }))),
    ...custos({ tarifaCentavos: BigInt(last.custos), outrasDespesasCentavos: 0n }) ?? [], ...custos(money(l)) ?? [],
  ])
  const entry = await post(tx, x, l.data_ocorrencia, `Retorno ${x.nsa}: ${l.ocorrencia === 'cheque_devolvido' ? 'cheque devolvido' : 'estorno da liquidação'}`
    + ` da cobrança nº ${c.numero}, título ${c.titulo_numero}`, back.length ? back : undefined)
  const principal = BigInt(last.principal)
  if (principal > 0n || BigInt(last.desagio) > 0n) {
    await tx.execute(sql`UPDATE titulos SET saldo_centavos = saldo_centavos + ${last.principal}::bigint,
        estado = CASE WHEN estado = 'liquidado' THEN 'adquirido' ELSE estado END,
        desagio_apropriado_centavos = desagio_apropriado_centavos - ${last.desagio}::bigint, atualizado_em = ${x.now.toISOString()}::timestamptz
      WHERE id = ${c.titulo_id}::uuid`)
  }
  await tx.execute(sql`UPDATE retorno_linhas SET estornada_em = ${x.now.toISOString()}::timestamptz
    WHERE retorno_id = ${last.retorno_id}::uuid AND linha = ${last.linha}`)
  // Open at the bank again, unless the título has been charged anew meanwhile (one live charge a título).
  const [live] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM cobrancas WHERE titulo_id = ${c.titulo_id}::uuid
    AND estado IN ('a_registrar', 'registrada') AND id <> ${c.id}::uuid`)
  await setCharge(tx, c.id, live ? 'baixada' : 'registrada', x.now)
  return { resultado: 'aplicada', cobrancaId: c.id, tituloId: c.titulo_id, lancamentoId: entry }
}

/** One line a side per account (and cedente): a reversal and the fees it keeps, as the entry a reader expects. */
function netted(lines: readonly EntryLine[]): EntryLine[] {
  const sums = new Map<string, EntryLine & { net: bigint }>()
  for (const l of lines) {
    const k = `${l.conta}:${l.cedenteId ?? ''}`
    const had = sums.get(k) ?? { conta: l.conta, cedenteId: l.cedenteId ?? null, net: 0n }
    had.net += (l.debito ?? 0n) - (l.credito ?? 0n)
    sums.set(k, had)
  }
  return [...sums.values()].filter((s) => s.net !== 0n)
    .map((s) => ({ conta: s.conta, cedenteId: s.cedenteId ?? null, ...(s.net > 0n ? { debito: s.net } : { credito: -s.net }) }))
}

/**
 * The bank's answer to an instruction sent in a remessa (collections/instructions): the charge's oldest one still
 * `enviada` (of the kind the occurrence answers, where it names one) is confirmed or refused, with the line's codes.
 */
async function answerInstruction(tx: Orm, x: LineContext, l: Pending, cobrancaId: string, estado: 'confirmada' | 'rejeitada', kind?: string) {
  const resposta = { retorno: x.nsa, linha: l.linha, ocorrencia: l.codigo, motivos: l.motivos ? l.motivos.split(' ') : [] }
  const [answered] = await queryRows<{ id: string }>(tx, sql`UPDATE cobranca_instrucoes SET estado = ${estado},
      banco_resposta = ${JSON.stringify(resposta)}::jsonb, atualizado_em = ${x.now.toISOString()}::timestamptz
    WHERE id = (SELECT id FROM cobranca_instrucoes WHERE cobranca_id = ${cobrancaId}::uuid AND estado = 'enviada'
      ${kind ? sql`AND instrucao = ${kind}` : sql``} ORDER BY seq LIMIT 1)
    RETURNING id`)
  if (answered && estado === 'confirmada') await instructionConfirmed(tx, answered.id, x.now)
}

/** The instruction an occurrence answers, where it answers one. */
const ANSWERS: Partial<Record<Ocorrencia, { estado: 'confirmada' | 'rejeitada', kind?: string }>> = {
  instrucao_confirmada: { estado: 'confirmada' }, instrucao_rejeitada: { estado: 'rejeitada' }, baixa: { estado: 'confirmada', kind: 'baixa' },
  protesto_enviado: { estado: 'confirmada', kind: 'protestar' }, protesto_sustado: { estado: 'confirmada', kind: 'sustar_protesto' },
}

async function applyLine(tx: Orm, x: LineContext, l: Pending): Promise<Outcome> {
  if (!l.sequencia) return ignored('nosso_numero_desconhecido', `o nosso número "${l.nosso_numero}" não traz uma sequência desta conta`)
  const c = await chargeOf(tx, l)
  if (!c) return ignored('nosso_numero_desconhecido', `nenhuma cobrança desta conta tem o nosso número ${l.sequencia}`)
  const dia = LIQUIDACOES.includes(l.ocorrencia) ? l.data_credito ?? l.data_ocorrencia : l.data_ocorrencia
  if (dia !== null && (dia < c.criada || dia > addDays(x.hoje, 31))) {
    return ignored('data_fora_do_periodo', `a data ${dia} é anterior à cobrança (${c.criada}) ou passa de 31 dias do envio`, c)
  }
  const before = await appliedBefore(tx, l, c.id)
  if (before) return ignored('ja_aplicada', `a mesma ocorrência foi aplicada pela linha ${before.linha} do retorno ${before.nsa || 'sem número'}`, c)
  const fees = (what: string) => post(tx, x, l.data_ocorrencia, `Retorno ${x.nsa}: ${what} da cobrança nº ${c.numero}`, custos(money(l)))
  const applied = async (what: string): Promise<Outcome> =>
    ({ resultado: 'aplicada', cobrancaId: c.id, tituloId: c.titulo_id, lancamentoId: await fees(what) })

  if (LIQUIDACOES.includes(l.ocorrencia)) return settle(tx, x, l, c)
  if (ESTORNOS.includes(l.ocorrencia)) return undo(tx, x, l, c)
  const answer = ANSWERS[l.ocorrencia]
  if (answer) await answerInstruction(tx, x, l, c.id, answer.estado, answer.kind)
  switch (l.ocorrencia) {
    case 'entrada_confirmada':
      if (c.estado === 'a_registrar' || c.estado === 'rejeitada') await setCharge(tx, c.id, 'registrada', x.now)
      return applied('tarifa de registro')
    case 'entrada_rejeitada':
      if (c.estado !== 'a_registrar') return ignored('estado_da_cobranca', `a entrada foi recusada, mas a cobrança está ${c.estado.replace('_', ' ')}`, c)
      await setCharge(tx, c.id, 'rejeitada', x.now, { ocorrencia: l.codigo, motivos: l.motivos ? l.motivos.split(' ') : [] })
      return applied('tarifa da entrada recusada')
    case 'baixa':
      if (c.estado === 'a_registrar' || c.estado === 'registrada') await setCharge(tx, c.id, 'baixada', x.now)
      return applied('tarifa de baixa')
    default:
      return applied(`tarifas e custas (ocorrência ${l.codigo})`)
  }
}

async function mark(tx: Orm, retornoId: string, linha: number, o: Outcome, now: Date): Promise<void> {
  const at = now.toISOString()
  if (o.resultado === 'ignorada') {
    await tx.execute(sql`UPDATE retorno_linhas SET resultado = 'ignorada', motivo = ${o.motivo}, detalhe = ${o.detalhe.slice(0, 300)},
        cobranca_id = ${o.cobrancaId ?? null}::uuid, titulo_id = ${o.tituloId ?? null}::uuid, aplicada_em = ${at}::timestamptz
      WHERE retorno_id = ${retornoId}::uuid AND linha = ${linha}`)
    return
  }
  await tx.execute(sql`UPDATE retorno_linhas SET resultado = 'aplicada', cobranca_id = ${o.cobrancaId}::uuid, titulo_id = ${o.tituloId}::uuid,
      detalhe = ${o.detalhe ?? null},
      lancamento_id = ${o.lancamentoId}::uuid, principal_centavos = ${(o.principal ?? 0n).toString()}::bigint,
      desagio_reconhecido_centavos = ${(o.desagio ?? 0n).toString()}::bigint, aplicada_em = ${at}::timestamptz
    WHERE retorno_id = ${retornoId}::uuid AND linha = ${linha}`)
}

export interface Progress { aplicadas: number, ignoradas: number, pendentes: number, ocupado?: true, lidas?: number }

/** One transaction: up to `batch` pending lines (or the one line `only`), applied in order, the file's counts moved. */
async function applyBatch(db: Pick<Database, 'orm'>, clienteId: string, retornoId: string, now: Date, opts: { batch: number, only?: number },
  onError?: (linha: number) => Outcome): Promise<Progress> {
  return withTenant(db, clienteId, async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(hashtext('retorno'), hashtext(${retornoId})) AS ok`)
    if (!lock!.ok) return { aplicadas: 0, ignoradas: 0, pendentes: 0, ocupado: true }
    const [file] = await queryRows<{ nsa: string, titulos: number, aplicadas: number, ignoradas: number }>(tx,
      sql`SELECT nsa, titulos, aplicadas, ignoradas FROM retornos WHERE id = ${retornoId}::uuid AND estado = 'aplicando' FOR UPDATE`)
    if (!file) return { aplicadas: 0, ignoradas: 0, pendentes: 0 }
    const lines = await queryRows<Pending>(tx, sql`SELECT ${PENDING_COLUMNS} FROM retorno_linhas
      WHERE retorno_id = ${retornoId}::uuid AND resultado = 'pendente' ${opts.only === undefined ? sql`` : sql`AND linha = ${opts.only}`}
      ORDER BY linha LIMIT ${opts.batch}`)
    const x: LineContext = { clienteId, retornoId, nsa: file.nsa, hoje: brasiliaDay(now), now }
    let a = 0
    let i = 0
    for (const l of lines) {
      const o = onError ? onError(l.linha) : await applyLine(tx, x, l)
      await mark(tx, retornoId, l.linha, o, now)
      if (o.resultado === 'aplicada') a++
      else i++
    }
    const aplicadas = file.aplicadas + a
    const ignoradas = file.ignoradas + i
    const whole = aplicadas + ignoradas === file.titulos
    await tx.execute(sql`UPDATE retornos SET aplicadas = ${aplicadas}, ignoradas = ${ignoradas},
        estado = ${whole ? 'aplicado' : 'aplicando'}, concluido_em = ${whole ? now.toISOString() : null}::timestamptz
      WHERE id = ${retornoId}::uuid`)
    return { aplicadas, ignoradas, pendentes: file.titulos - aplicadas - ignoradas, lidas: lines.length }
  })
}

export const BATCH = 200

/**
 * Applies the file's pending lines until none is left or `until` has passed; answers its progress. Another applier
 * at work on the file (the job and the upload's own run) makes this one step back (`ocupado`).
 */
export async function applyRetorno(deps: ApplyDeps, clienteId: string, retornoId: string, now: () => Date,
  opts: { batch?: number, until?: number } = {}): Promise<Progress> {
  const batch = opts.batch ?? BATCH
  for (;;) {
    let p: Progress
    try {
      p = await applyBatch(deps.db, clienteId, retornoId, now(), { batch })
    } catch {
      p = await lineByLine(deps, clienteId, retornoId, now, batch)
    }
    // No line read while some are counted pending would loop for ever: the counts are the database's to keep right.
    if (p.ocupado || p.pendentes === 0 || p.lidas === 0) return p
    if (opts.until !== undefined && Date.now() >= opts.until) return p
  }
}

/** A batch that failed, again one line a transaction: the line that fails alone is kept as ignored, and reported. */
async function lineByLine(deps: ApplyDeps, clienteId: string, retornoId: string, now: () => Date, batch: number): Promise<Progress> {
  const lines = await withTenant(deps.db, clienteId, (tx) => queryRows<{ linha: number }>(tx, sql`SELECT linha FROM retorno_linhas
    WHERE retorno_id = ${retornoId}::uuid AND resultado = 'pendente' ORDER BY linha LIMIT ${batch}`))
  let p: Progress = { aplicadas: 0, ignoradas: 0, pendentes: 0 }
  for (const { linha } of lines) {
    try {
      p = await applyBatch(deps.db, clienteId, retornoId, now(), { batch: 1, only: linha })
    } catch (err) {
      deps.onLineError?.(err, { retornoId, linha })
      p = await applyBatch(deps.db, clienteId, retornoId, now(), { batch: 1, only: linha },
        () => ignored('erro_interno', IGNORADA.erro_interno))
    }
    if (p.ocupado) return p
  }
  return p
}

// What a retorno's line moves in the ledger (issue 33), computed apart from the database so that its balance can be
// checked over any amounts a bank may send. A liquidation: the bank takes its fee (and other costs) from what the
// sacado paid and credits the rest; the título's balance falls by the money paid toward it (what was paid less the
// juros and multa and other credits paid on top), and then by the discount and the abatimento the boleto granted,
// as far as the balance goes: a reduction never settles more than was owed, nor becomes money. Money paid above the
// balance (or for a título no longer open) waits in `valores_a_identificar` until someone says whose it is. The
// abatimento is the cedente's to bear (a defect of the título's origin: docs/decisions.md), so it is debited to the
// cedente's conta gráfica; the discount is the buyer's own cost of collecting. When the título is settled whole,
// the deságio it has not yet earned is earned now.
import type { EntryLine } from '../../ledger/index.ts'

export interface Valores {
  pagoCentavos: bigint
  jurosMultaCentavos: bigint
  descontoCentavos: bigint
  abatimentoCentavos: bigint
  tarifaCentavos: bigint
  outrasDespesasCentavos: bigint
  outrosCreditosCentavos: bigint
}

export interface TituloAberto {
  cedenteId: string
  /** The título's open balance; 0 when it is no longer acquired (liquidated, bought back, written off). */
  saldoCentavos: bigint
  /** The deságio not yet earned (recognised when the balance reaches 0). */
  desagioPendenteCentavos: bigint
}

export interface Liquidacao {
  linhas: EntryLine[]
  /** What the payment took off the título's balance. */
  principalCentavos: bigint
  /** Money that came in above it. */
  sobraCentavos: bigint
  /** The discount and the abatimento as far as they reduced the balance. */
  descontoCentavos: bigint
  abatimentoCentavos: bigint
  desagioReconhecidoCentavos: bigint
  quitado: boolean
}

const debit = (conta: EntryLine['conta'], centavos: bigint, cedenteId?: string): EntryLine =>
  centavos >= 0n ? { conta, debito: centavos, ...(cedenteId ? { cedenteId } : {}) } : { conta, credito: -centavos, ...(cedenteId ? { cedenteId } : {}) }

/**
 * A liquidation's lines, or undefined when its amounts cannot be a payment (the charges it names exceed what was
 * paid with the reductions): such a line is ignored, not guessed at.
 */
const min = (a: bigint, b: bigint) => (a < b ? a : b)

export function liquidacao(v: Valores, t: TituloAberto): Liquidacao | undefined {
  const cash = v.pagoCentavos - v.jurosMultaCentavos - v.outrosCreditosCentavos
  if (cash < 0n || v.pagoCentavos <= 0n) return undefined
  const paid = min(cash, t.saldoCentavos)
  const sobra = cash - paid
  const desconto = min(v.descontoCentavos, t.saldoCentavos - paid)
  const abatimento = min(v.abatimentoCentavos, t.saldoCentavos - paid - desconto)
  const principal = paid + desconto + abatimento
  const quitado = t.saldoCentavos > 0n && principal === t.saldoCentavos
  const desagio = quitado ? t.desagioPendenteCentavos : 0n
  const costs = v.tarifaCentavos + v.outrasDespesasCentavos
  return {
    principalCentavos: principal, sobraCentavos: sobra, descontoCentavos: desconto, abatimentoCentavos: abatimento, desagioReconhecidoCentavos: desagio,
    quitado,
    linhas: [
      // What the bank credits: what was paid, less what it kept (a fee above the payment is a debit of the account).
      debit('banco', v.pagoCentavos - costs),
      { conta: 'despesas_bancarias', debito: costs },
      { conta: 'descontos_concedidos', debito: desconto },
      { conta: 'conta_grafica_cedentes', cedenteId: t.cedenteId, debito: abatimento },
      { conta: 'direitos_creditorios', credito: principal },
      { conta: 'receita_juros_multa', credito: v.jurosMultaCentavos + v.outrosCreditosCentavos },
      { conta: 'valores_a_identificar', credito: sobra },
      { conta: 'desagio_a_apropriar', debito: desagio },
      { conta: 'receita_desagio', credito: desagio },
    ],
  }
}

/** A fee or a cost the bank charged on an occurrence that moved no payment (a registration, a protest's costs). */
export function custos(v: Pick<Valores, 'tarifaCentavos' | 'outrasDespesasCentavos'>): EntryLine[] | undefined {
  const costs = v.tarifaCentavos + v.outrasDespesasCentavos
  if (costs <= 0n) return undefined
  return [{ conta: 'despesas_bancarias', debito: costs }, { conta: 'banco', credito: costs }]
}

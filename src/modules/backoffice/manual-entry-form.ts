// The manual entry's form, without JavaScript: a fixed number of line rows (an account and a debit or a credit,
// typed in reais), empty rows ignored; what the rows add up to is checked here first, in words beside the rows,
// and the API checks it again (it decides). Error keys are what the summary shows: "Linha 2, débito".
import { brl } from '../../platform/lib/brl.ts'
import type { Action, Built, Fields } from './actions.ts'
import { centavosOf } from '../../platform/lib/typed-reais.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'

/** Rows the form offers; an entry with more lines is proposed through the API. */
export const FORM_LINES = 4

export const MOTIVO_TEXTO: Record<string, string> = {
  aporte_capital: 'Aporte de capital', funding_recebido: 'Funding recebido', tarifa_bancaria: 'Tarifa bancária', ajuste: 'Ajuste',
}

export const lineKey = (n: number, field: 'conta' | 'débito' | 'crédito' | 'linha') => (field === 'linha' ? `Linha ${n}` : `Linha ${n}, ${field}`)

/** The rows a person filled (any of their fields), by their number on the form (1…FORM_LINES). */
export function filledRows(f: Fields): number[] {
  return Array.from({ length: FORM_LINES }, (_, i) => i + 1).filter((n) => f.get(`conta_${n}`) || f.get(`debito_${n}`) || f.get(`credito_${n}`))
}

export function buildManualEntry(f: Fields): Built {
  const errors: Record<string, string> = {}
  const rows = filledRows(f)
  const linhas: { conta: string, debito_centavos?: number, credito_centavos?: number }[] = []
  let debitos = 0n
  let creditos = 0n
  for (const n of rows) {
    const conta = f.get(`conta_${n}`)
    if (!conta) errors[lineKey(n, 'conta')] = 'escolha a conta'
    const side = (name: 'debito' | 'credito', label: 'débito' | 'crédito') => {
      const typed = f.get(`${name}_${n}`)
      if (typed === undefined) return undefined
      const c = centavosOf(typed)
      if (c === undefined || c === 0) errors[lineKey(n, label)] = 'valor em reais acima de zero, como 1.234,56'
      return c || undefined
    }
    const debito = side('debito', 'débito')
    const credito = side('credito', 'crédito')
    if (f.get(`debito_${n}`) === undefined && f.get(`credito_${n}`) === undefined) errors[lineKey(n, 'débito')] = 'um débito ou um crédito'
    if (f.get(`debito_${n}`) !== undefined && f.get(`credito_${n}`) !== undefined) errors[lineKey(n, 'crédito')] = 'um débito ou um crédito, não os dois'
    debitos += BigInt(debito ?? 0)
    creditos += BigInt(credito ?? 0)
    linhas.push({ conta: conta ?? '', ...(debito ? { debito_centavos: debito } : {}), ...(credito ? { credito_centavos: credito } : {}) })
  }
  if (rows.length < 2) errors.linhas = 'um lançamento tem ao menos duas linhas: um débito e um crédito'
  else if (!Object.keys(errors).length && debitos !== creditos) {
    errors.linhas = `os débitos (${brl(debitos)}) e os créditos (${brl(creditos)}) não fecham`
  }
  const body = {
    data: f.get('data') ?? '', historico: f.get('historico') ?? '', motivo: f.get('motivo') ?? '', justificativa: f.get('justificativa') ?? '', linhas,
  }
  return { body, errors }
}

/**
 * A 422 item's field as the form names it: a line by the API's index, which is the form's row when the rows are
 * filled from the top (the checks above leave the API little to refuse in a line).
 */
export function manualEntryField(loc: string): string {
  const m = /^linhas\.(\d+)(?:\.(conta|debito_centavos|credito_centavos))?$/.exec(loc)
  if (!m) return loc
  const n = Number(m[1]) + 1
  return m[2] === 'conta' ? lineKey(n, 'conta') : m[2] === 'debito_centavos' ? lineKey(n, 'débito') : m[2] === 'credito_centavos'
    ? lineKey(n, 'crédito') : lineKey(n, 'linha')
}

const page = () => ({ kind: 'lancamentos-manuais' as const })

/** The forms of the manual entries' page, as the back office's ACTIONS take them. */
export const MANUAL_ENTRY_ACTIONS: Record<string, Action> = {
  'lancamentos-manuais': {
    method: 'POST', url: () => '/api/lancamentos-manuais', build: buildManualEntry,
    notice: 'Lançamento proposto: outra pessoa da empresa o confirma antes que entre no razão.', done: () => P.lancamentosManuais, page,
    field: manualEntryField,
  },
  'lancamento-manual/confirmacao': {
    method: 'POST', url: (id) => `/api/lancamentos-manuais/${id}/confirmacao`, build: () => ({ errors: {} }),
    notice: 'Lançamento confirmado: está no razão e no balancete.', done: () => P.lancamentosManuais, page,
  },
  'lancamento-manual/recusa': {
    method: 'POST', url: (id) => `/api/lancamentos-manuais/${id}/recusa`, build: (f) => ({ body: { motivo: f.get('motivo') ?? '' }, errors: {} }),
    notice: 'Lançamento recusado: nada foi lançado.', done: () => P.lancamentosManuais, page,
  },
}

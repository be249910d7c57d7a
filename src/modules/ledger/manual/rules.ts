// What a proposed entry must be beyond its JSON shape, every problem at once as 422 items naming their field: a day
// that exists, not in the future (a manual entry records what happened); each line one side; the lines balance.
// An unbalanced entry is told on every line, with both totals, so a form shows it beside each amount.
import type { ValidationItem } from '../../../platform/http/validation-errors.ts'
import { dayNumber } from '../../calendar/index.ts'
import type { LancamentoManualInT } from './definitions.ts'
import type { ManualLine } from './tables.ts'

const item = (loc: (string | number)[], msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationItem => ({
  type: 'value_error', loc: ['body', ...loc], msg: `Value error, ${msg}`, input, ...(ctx ? { ctx } : {}),
})

/** The lines as kept, or every rule broken. `today`: Brasília's day now. */
export function checkManualEntry(body: LancamentoManualInT, today: string): { lines: ManualLine[], items: ValidationItem[] } {
  const items: ValidationItem[] = []
  if (dayNumber(body.data) === undefined || body.data < '2000-01-01') items.push(item(['data'], 'no such day', body.data))
  else if (body.data > today) items.push(item(['data'], `a manual entry records what happened: today (${today}) or before`, body.data))
  const lines = body.linhas.map((l) => ({ conta: l.conta, debito_centavos: l.debito_centavos ?? 0, credito_centavos: l.credito_centavos ?? 0 }))
  let oneSided = true
  lines.forEach((l, i) => {
    if ((l.debito_centavos > 0) === (l.credito_centavos > 0)) {
      oneSided = false
      items.push(item(['linhas', i], 'a line has a debit or a credit above zero, not both nor neither', body.linhas[i]))
    }
  })
  // Sums as bigint: twenty lines of up to 2^53 − 1 each pass what a number adds exactly.
  const debitos = lines.reduce((s, l) => s + BigInt(l.debito_centavos), 0n)
  const creditos = lines.reduce((s, l) => s + BigInt(l.credito_centavos), 0n)
  if (oneSided && debitos !== creditos) {
    const ctx = { debitos_centavos: String(debitos), creditos_centavos: String(creditos) }
    lines.forEach((l, i) => items.push(item(['linhas', i], `the entry does not balance: debits ${debitos}, credits ${creditos}`, body.linhas[i], ctx)))
  }
  if (oneSided && debitos === creditos && debitos > BigInt(Number.MAX_SAFE_INTEGER)) {
    items.push(item(['linhas'], 'the entry\'s total is above 2^53 − 1 centavos', null))
  }
  return { lines, items }
}

// What an operation's and its títulos' fields must be beyond their JSON shapes: days that exist and fall where the
// borderô allows (emitted by its date, due after it), an NF-e key with its check digit, registers of the
// customer's. Every problem at once, as 422 items in the contract's shape, each naming its field.
import { RequestValidationError, type ValidationItem } from '../../platform/http/validation-errors.ts'
import { UNSAFE_NAME_CHARACTER } from '../../platform/lib/chosen-name.ts'
import { addDays, dayNumber } from '../calendar/index.ts'
import { isChaveNfe } from './chave-nfe.ts'
import type { TituloInT } from './schemas.ts'
import type { NewTitle } from './store.ts'

/** The furthest due date a borderô takes, from its date (ten years). */
export const MAX_PRAZO_DIAS = 3660
/** The furthest ahead an operation may be dated (a year). */
export const MAX_ANTECEDENCIA_DIAS = 366

const item = (loc: (string | number)[], msg: string, input: unknown): ValidationItem => ({ type: 'value_error', loc: ['body', ...loc],
  msg: `Value error, ${msg}`, input })

export function fail(items: ValidationItem[]): void {
  if (items.length) throw new RequestValidationError(items)
}

/** The operation's date: a real day, today or later, at most a year ahead. */
export function checkDataOperacao(data: string, today: string): ValidationItem[] {
  if (dayNumber(data) === undefined) return [item(['data_operacao'], 'no such day', data)]
  if (data < today) return [item(['data_operacao'], `the operation's date is today (${today}) or later`, data)]
  if (data > addDays(today, MAX_ANTECEDENCIA_DIAS)) return [item(['data_operacao'], `at most ${MAX_ANTECEDENCIA_DIAS} days ahead`, data)]
  return []
}

/**
 * The títulos as kept, or the items of each rule broken. `sacados` holds the ids the customer has; `loc` is where
 * the list is in the body (`titulos`).
 */
export function checkTitles(list: TituloInT[], dataOperacao: string, sacados: ReadonlySet<string>, faceSoFar: bigint): { kept: NewTitle[],
  items: ValidationItem[] } {
  const items: ValidationItem[] = []
  const seenIds = new Set<string>()
  let face = faceSoFar
  // An operation's date that does not exist is its own item (checkDataOperacao): the títulos' days are then
  // checked only for being days, since nothing can be measured from it.
  const dated = dayNumber(dataOperacao) !== undefined
  list.forEach((t, i) => {
    const at = (field: string) => ['titulos', i, field]
    const emissao = dayNumber(t.emissao) !== undefined
    const vencimento = dayNumber(t.vencimento) !== undefined
    if (!emissao) items.push(item(at('emissao'), 'no such day', t.emissao))
    else if (dated && t.emissao > dataOperacao) items.push(item(at('emissao'), `emitted on or before the operation's date (${dataOperacao})`, t.emissao))
    if (!vencimento) items.push(item(at('vencimento'), 'no such day', t.vencimento))
    else if (dated && t.vencimento <= dataOperacao) items.push(item(at('vencimento'), `due after the operation's date (${dataOperacao})`, t.vencimento))
    else if (dated && t.vencimento > addDays(dataOperacao, MAX_PRAZO_DIAS)) items.push(item(at('vencimento'),
      `due at most ${MAX_PRAZO_DIAS} days after the operation's date`, t.vencimento))
    if (t.chave_nfe !== undefined && !isChaveNfe(t.chave_nfe)) items.push(item(at('chave_nfe'), 'the NF-e key\'s check digit does not match', t.chave_nfe))
    if (!sacados.has(t.sacado_id.toLowerCase())) items.push(item(at('sacado_id'), 'no sacado of the customer\'s has this id', t.sacado_id))
    if (UNSAFE_NAME_CHARACTER.test(t.numero)) items.push(item(at('numero'), 'control, line-break and bidi characters are not allowed', t.numero))
    if (t.id_externo !== undefined) {
      if (seenIds.has(t.id_externo)) items.push(item(at('id_externo'), 'this id_externo is in the list already', t.id_externo))
      seenIds.add(t.id_externo)
    }
    face += BigInt(t.valor_face_centavos)
  })
  if (face > BigInt(Number.MAX_SAFE_INTEGER)) items.push(item(['titulos'], 'the operation\'s total face value passes 2^53 − 1 centavos', null))
  const kept = list.map((t): NewTitle => ({
    tipo: t.tipo as NewTitle['tipo'], numero: t.numero, sacadoId: t.sacado_id.toLowerCase(), emissao: t.emissao, vencimento: t.vencimento,
    valorFaceCentavos: BigInt(t.valor_face_centavos), chaveNfe: t.chave_nfe ?? null, idExterno: t.id_externo ?? null,
  }))
  return { kept, items }
}

// What the ledger refuses, with the catalogue's code.
import { DomainError } from '../../platform/http/domain-error.ts'

/** The most the customer's ledger may hold in all: past it, a total it serves would not be an exact JSON number. */
export const LEDGER_TOTAL_MAX = Number.MAX_SAFE_INTEGER

/** The posting would take the customer's debits ever posted past 2^53 − 1 centavos (migration 0030). */
export class LedgerTotalError extends DomainError<'total_contabil_excedido'> {
  /** `lancamento`: the entry's debits, at most an operation's face value (itself at most 2^53 − 1). */
  constructor(lancamento: bigint) {
    super('total_contabil_excedido', 'the ledger would hold more than 2^53 − 1 centavos in all, which no total could serve exactly')
    this.fields = { limite_centavos: LEDGER_TOTAL_MAX, lancamento_centavos: Number(lancamento) }
  }
}

/** A manual entry is confirmed by a person other than the one who proposed it (the payments' two-person rule, and its code). */
export class EntryConfirmerError extends DomainError<'aprovacao_pelo_mesmo_usuario'> {
  constructor(why: string) {
    super('aprovacao_pelo_mesmo_usuario', why)
  }
}

/** The manual entry is decided already (confirmed or refused), or another request decided it first: `estado` is where it is. */
export class ManualEntryStateError extends DomainError<'estado_invalido'> {
  constructor(estado: string) {
    super('estado_invalido', `the manual entry is ${estado}`)
    this.fields = { estado }
  }
}

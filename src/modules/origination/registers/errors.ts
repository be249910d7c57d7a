// What the registers refuse, each with its catalogue code and, for a duplicate, the id that already holds the value.
import { DomainError } from '../../../platform/http/domain-error.ts'

/** The customer has a cedente (or sacado) with this document. */
export class DocumentInUseError extends DomainError<'documento_em_uso'> {
  constructor(id: string) {
    super('documento_em_uso', 'a register of this kind has this document already')
    this.fields = { id }
  }
}

/** A bank account is confirmed by a person other than the one who added it (and by a person, not a bare token). */
export class AccountConfirmerError extends DomainError<'aprovacao_pelo_mesmo_usuario'> {
  constructor(why: string) {
    super('aprovacao_pelo_mesmo_usuario', why)
  }
}

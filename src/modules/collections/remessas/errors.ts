// What a remessa refuses, each with its catalogue code and what lets the caller act on it.
import { DomainError } from '../../../platform/http/domain-error.ts'

export type LeftOut = { cobranca_id: string, instrucao_id: string | null, motivo: string, faltam?: string[], detalhe?: string }

/** Nothing the account's bank is waiting for: no charge to register, no instruction to send (`fora`: what waits, and why). */
export class EmptyRemessaError extends DomainError<'remessa_vazia'> {
  constructor(fora: readonly LeftOut[]) {
    super('remessa_vazia', 'nothing pending for this account\'s bank')
    this.fields = { fora }
  }
}

/** The account talks to its bank through the API: a file would register its charges twice. */
export class AccountByApiError extends DomainError<'conta_cobranca_por_api'> {
  constructor() {
    super('conta_cobranca_por_api', 'the account\'s transport is the bank\'s API, not CNAB files')
  }
}

/** The file's header names the customer by its CNPJ: not recorded yet, or alphanumeric, which the layouts do not carry yet. */
export class CustomerWithoutCnpjError extends DomainError<'empresa_sem_cnpj'> {
  constructor() {
    super('empresa_sem_cnpj', 'the customer\'s CNPJ is not recorded, or is alphanumeric: the file\'s header carries its digits')
  }
}

// What the registry refuses, each with its catalogue code.
import { DomainError } from '../../platform/http/domain-error.ts'

/** Only a duplicata escritural is in the registry: a cheque, a promissory note, a CCB or a CT-e is not (`tipo` names it). */
export class NotInRegistryError extends DomainError<'titulo_sem_registro'> {
  constructor(tipo: string) {
    super('titulo_sem_registro', `a ${tipo} is not a duplicata escritural`)
    this.fields = { tipo }
  }
}

/** The registradora names the buyer by its CNPJ: the customer's must be recorded first (`clientes documento`, the operator's CLI). */
export class RegistryWithoutCnpjError extends DomainError<'empresa_sem_cnpj'> {
  constructor() {
    super('empresa_sem_cnpj', 'the customer\'s CNPJ is not recorded: the registradora names the buyer by it')
  }
}

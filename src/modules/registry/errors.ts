// What the registry refuses, each with its catalogue code.
import { DomainError } from '../../platform/http/domain-error.ts'

/** Only a duplicata escritural is in the registry: a cheque, a promissory note, a CCB or a CT-e is not (`tipo` names it). */
export class NotInRegistryError extends DomainError<'titulo_sem_registro'> {
  constructor(tipo: string) {
    super('titulo_sem_registro', `a ${tipo} is not a duplicata escritural`)
    this.fields = { tipo }
  }
}

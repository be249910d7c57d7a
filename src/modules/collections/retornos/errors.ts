// What a retorno's upload refuses, with its catalogue code.
import { DomainError } from '../../../platform/http/domain-error.ts'

/** The file breaks its layout or its structure, or its trailers do not match its lines: the line and why. */
export class RetornoRecusadoError extends DomainError<'arquivo_cnab_recusado'> {
  constructor(linha: number, motivo: string) {
    super('arquivo_cnab_recusado', `the CNAB file was refused at line ${linha}: ${motivo}`)
    this.fields = { linha, motivo }
  }
}

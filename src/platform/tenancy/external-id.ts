// `id_externo` (produto.md §1): a customer's own id for a resource it creates, unique per customer and kind. A
// second create with the same value is refused with the id that holds it, so an integration links instead of
// retrying.
import { DomainError } from '../http/domain-error.ts'

export class ExternalIdInUseError extends DomainError<'id_externo_em_uso'> {
  constructor(id: string) {
    super('id_externo_em_uso', 'a resource of this kind has this id_externo already')
    this.fields = { id }
  }
}

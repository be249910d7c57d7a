// The webhooks' refusals that are not a field's (those are 422 items on the field).
import { DomainError } from '../../platform/http/domain-error.ts'

/** A customer has as many live endpoints as the service keeps for one: each event is queued once per endpoint. */
export class TooManyWebhooksError extends DomainError<'webhooks_no_limite'> {
  constructor(limite: number) {
    super('webhooks_no_limite', `a customer keeps at most ${limite} webhook endpoints: delete one first`)
    this.fields = { limite }
  }
}

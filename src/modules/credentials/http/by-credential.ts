// The caller of a mutation route (src/platform/idempotency/mutation-route.ts) that needs a credential.
import type { Caller } from '../../../platform/idempotency/mutation-route.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { actionContext, actorOf } from './credential.ts'

/** The request's credential (a token or a session): its customer, its own keys, and it as the actor. */
export const byCredential: Caller<ActionContext> = {
  clienteId: (req) => req.credential!.clienteId,
  escopo: (req) => `${req.credential!.kind}:${req.credential!.id}`,
  action: (req, now) => actionContext(req, actorOf(req.credential!), now),
}

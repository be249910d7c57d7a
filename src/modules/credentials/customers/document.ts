// A customer's CNPJ set or corrected by the operator (`clientes documento`): the cessionária's number the borderô
// prints (issue 32 item 4). A customer made without one printed "não cadastrado" with no way to fix it but a new
// customer. Audited in the customer's trail, with the value before and after.
import { eq } from 'drizzle-orm'
import type { Database } from '../../../platform/db/database.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { clientes } from '../../../platform/db/schema.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { CredentialInputError } from '../errors.ts'
import { normalizeCnpj } from './cnpj.ts'

/** The CNPJ kept (bare); undefined when no customer has this id. */
export async function setCustomerDocument(db: Pick<Database, 'orm'>, clienteId: string, typed: string, ctx: ActionContext): Promise<string | undefined> {
  const documento = normalizeCnpj(typed)
  if (!documento) throw new CredentialInputError('the document is not a valid CNPJ (14 characters whose check digits hold)')
  try {
    return await withTenant(db, clienteId, async (tx) => {
      const [before] = await tx.select({ documento: clientes.documento }).from(clientes).where(eq(clientes.id, clienteId))
      if (!before) return undefined
      if (before.documento === documento) return documento
      await tx.update(clientes).set({ documento }).where(eq(clientes.id, clienteId))
      await appendAudit(tx, clienteId, ctx, 'cliente.documento_alterado', { alvoId: clienteId,
        alteracoes: { documento: { antes: before.documento, depois: documento } } })
      return documento
    })
  } catch (err) {
    if (isUniqueViolation(err, 'clientes_documento_key')) throw new CredentialInputError('a customer with this CNPJ exists already')
    throw err
  }
}

// Changing a person's role. A customer always keeps one active administrador (who manages people and tokens):
// taking the role from the last one is refused. The other administradores are locked while checked, so two
// demotions at once cannot each count the other and leave none. The change takes effect at the next request of
// every session and token of the person: the credential checks read the role each time (roles.ts).
import { and, eq, ne } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { usuarios } from '../../../platform/db/schema.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { LastAdministratorError, UnknownUserError } from '../errors.ts'
import type { Papel } from '../roles.ts'
import { getUser, type User } from './store.ts'
import type { UserRef } from './suspension.ts'

export async function setRole(tx: Orm, ref: UserRef, papel: Papel, ctx: ActionContext): Promise<{ user: User, changed: boolean }> {
  const [before] = await tx.select({ papel: usuarios.papel }).from(usuarios)
    .where(and(eq(usuarios.clienteId, ref.clienteId), eq(usuarios.id, ref.usuarioId))).for('update')
  if (!before) throw new UnknownUserError()
  if (before.papel === papel) return { user: (await getUser(tx, ref.usuarioId))!, changed: false }
  if (before.papel === 'administrador') {
    const others = await tx.select({ id: usuarios.id }).from(usuarios)
      .where(and(eq(usuarios.clienteId, ref.clienteId), ne(usuarios.id, ref.usuarioId), eq(usuarios.papel, 'administrador'), eq(usuarios.estado, 'ativo')))
      .for('update')
    if (others.length === 0) throw new LastAdministratorError()
  }
  await tx.update(usuarios).set({ papel }).where(and(eq(usuarios.clienteId, ref.clienteId), eq(usuarios.id, ref.usuarioId)))
  await appendAudit(tx, ref.clienteId, ctx, 'usuario.papel_alterado', { alvoId: ref.usuarioId })
  return { user: (await getUser(tx, ref.usuarioId))!, changed: true }
}

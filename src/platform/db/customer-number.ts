// A customer's own numbering (migration 0029): 1, 2, 3… within each customer, what a customer sees numbered (its
// borderôs, ledger entries, audit rows), never a global sequence that would show other customers' activity.
import { sql } from 'drizzle-orm'
import { bigint } from 'drizzle-orm/pg-core'

/** `numero`, given on insert by the trigger numera_por_cliente: the code never writes it (an insert sends DEFAULT). */
export const customerNumber = () => bigint('numero', { mode: 'number' }).notNull().default(sql`DEFAULT`)

// Many títulos for one customer, written by SQL (generate_series) as an import would: the exports' tests read
// them back over a real socket. Numbered `${prefix}1`… after the one título the operation was drafted with.
import { sql } from 'drizzle-orm'
import type { AddressInfo } from 'node:net'
import type { App } from '../../../src/app.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import type { Clock } from '../../../src/platform/lib/clock.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { issueToken } from '../../helpers/api-credentials.ts'
import { backOffice, created, exampleRegisters, exampleTitles } from './helpers.ts'

const SLICE = 10_000

/** A customer with `rows` títulos more in one operation, a token that reads them, and the app listening: its port. */
export async function customerWithTitles(db: Database, app: App, clock: Clock, rows: number, prefix: string) {
  const office = await backOffice(db, app, clock)
  const regs = await exampleRegisters(office.operador.call)
  const op = created(await office.operador.call('POST', '/api/operacoes', {
    cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)).slice(0, 1),
  }))
  // In slices: one 100,000-row statement on a loaded CI machine can outlast the pool's 10 s query timeout.
  await withTenant(db, office.clienteId, async (tx) => {
    for (let from = 1; from <= rows; from += SLICE) {
      await tx.execute(sql`INSERT INTO titulos (cliente_id, operacao_id, cedente_id, tipo, numero,
          sacado_id, emissao, vencimento, valor_face_centavos, saldo_centavos)
        SELECT ${office.clienteId}::uuid, ${op.id}::uuid, ${regs.cedente.id}::uuid, 'duplicata_mercantil', ${prefix} || g, ${regs.sacados[0].id}::uuid,
          DATE '2026-10-01', DATE '2026-11-04' + (g % 90), 100000 + g, 100000 + g
        FROM generate_series(${from}::int, ${Math.min(rows, from + SLICE - 1)}::int) AS g`)
    }
  })
  const { token } = await issueToken(db, office.clienteId, { escopos: ['operacoes'], clock })
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 })
  return { office, token, port: (app.server.address() as AddressInfo).port }
}

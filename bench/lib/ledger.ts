// A customer with 100,000 ledger entries for the ledger scenarios: each a balanced pair of lines (the bank
// debited, a cedente's conta gráfica credited), spread over 700 days and 100 cedentes, written as the service
// writes them (as the runtime role, in the customer's tenant, the balance checked by the database at commit).
// And, for pgbench, the statements GET /api/cedentes/{id}/extrato and GET /api/lancamentos run (src/modules/ledger/
// store.ts, the existence check of src/modules/origination), in the customer's transaction as the runtime role.
import { writeFileSync } from 'node:fs'
import pg from 'pg'
import { asCustomer } from './as-customer.ts'
import { entriesCountQuery, entriesPageQuery } from '../../src/modules/ledger/store.ts'
import { boundStatement } from '../../src/platform/db/one-trip.ts'

export type Ledger = { cedente: string, de: string, ate: string }

const DAYS = 700
const FIRST_DAY = '2025-01-01'

export async function seedLedger(dbUrl: string, clienteId: string, entries: number, cedentes: number): Promise<Ledger> {
  return asCustomer(dbUrl, clienteId, async (client) => {
    const made = await client.query<{ id: string }>(`INSERT INTO cedentes (cliente_id, tipo_pessoa, documento, razao_social, perfil_iof)
      SELECT $1::uuid, 'pj', lpad(g::text, 12, '0') || '00', 'Cedente ' || g, 'pj' FROM generate_series(1, $2::int) g RETURNING id`, [clienteId, cedentes])
    const ids = made.rows.map((r) => r.id)
    await client.query(`INSERT INTO lancamentos (cliente_id, data, historico, origem_tipo, origem_id)
      SELECT $1::uuid, date '${FIRST_DAY}' + (g::bigint * ${DAYS} / $2::int)::int, 'Lançamento ' || g, 'operacao', gen_random_uuid()
        FROM generate_series(0, $2::int - 1) g`, [clienteId, entries])
    await client.query(`INSERT INTO lancamento_linhas (cliente_id, lancamento_id, data, lancamento_seq, conta, cedente_id, debito_centavos, credito_centavos)
      SELECT l.cliente_id, l.id, l.data, l.seq, x.conta, CASE WHEN x.conta = 'conta_grafica_cedentes' THEN ($1::uuid[])[1 + l.seq % $2::int] END, x.d, x.c
        FROM lancamentos l CROSS JOIN LATERAL (VALUES ('banco', 1000 + l.seq % 5000, 0), ('conta_grafica_cedentes', 0, 1000 + l.seq % 5000)) x(conta, d, c)
       ORDER BY l.seq, x.conta`, [ids, cedentes])
    // A month of the last year of entries: about 140 movements of the cedente among its 1,000.
    return { cedente: ids[0]!, de: '2026-09-01', ate: '2026-09-30' }
  }, ['lancamentos', 'lancamento_linhas', 'cedentes'])
}

/** pgbench scripts of both routes' statements with the customer's ids written in (their values never change). */
export function writeLedgerScripts(dir: string, clienteId: string, l: Ledger): { extrato: string, lancamentos: string } {
  const tenant = `BEGIN;\nSELECT set_config('app.cliente_id', '${clienteId}', true);\n`
  const mine = `cedente_id = '${l.cedente}' AND conta = 'conta_grafica_cedentes'`
  const extrato = `${tenant}SELECT 1 FROM cedentes WHERE id = '${l.cedente}';
SELECT coalesce(sum(credito_centavos - debito_centavos), 0)::text FROM lancamento_linhas WHERE ${mine} AND data < '${l.de}';
${[
    'SELECT ll.lancamento_id, ll.data::text, l.historico, l.origem_tipo, l.origem_id, ll.debito_centavos::text, ll.credito_centavos::text',
    'FROM lancamento_linhas ll JOIN lancamentos l ON l.cliente_id = ll.cliente_id AND l.id = ll.lancamento_id',
    `WHERE ll.${mine} AND ll.data >= '${l.de}' AND ll.data <= '${l.ate}' ORDER BY ll.data, ll.lancamento_seq, ll.id;`,
  ].join(' ')}
COMMIT;
`
  // The service's own statements for a page of 50 and its count (rendered by its code), their values written in.
  const written = (q: Parameters<typeof boundStatement>[0]) => {
    const page = boundStatement(q)
    return page.text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = page.values[Number(n) - 1]
      return typeof value === 'number' ? String(value) : pg.escapeLiteral(String(value))
    }).replace(/\s+/g, ' ')
  }
  const lancamentos = `${tenant}${written(entriesPageQuery({}, { limit: 50 }))};\n${written(entriesCountQuery({}))};\nCOMMIT;\n`
  const files = { extrato: `${dir}/extrato.pgbench.sql`, lancamentos: `${dir}/lancamentos.pgbench.sql` }
  writeFileSync(files.extrato, extrato)
  writeFileSync(files.lancamentos, lancamentos)
  return files
}

// The "lists" scenario (issue 32): a customer with 10,000 operations of three títulos each over 200 cedentes,
// written as the runtime role in the customer's tenant; and, for pgbench, the SQL that computes the first page of
// the filtered list the scenario asks for (the page, its count, its títulos' totals), in the customer's
// transaction as the runtime role. The issue wants the route within 2× of it.
import { writeFileSync } from 'node:fs'
import { asCustomer } from './as-customer.ts'

export type Lists = { path: string }

const FIRST_DAY = '2026-01-01'
const DAYS = 300

/** The filtered list: a state, a period, and a search by the cedente's name (the cedentes "Cedente da lista 1…", one in ten or so). */
const FILTER = { estado: 'rascunho', de: '2026-03-01', ate: '2026-08-31', busca: 'lista 1' }

export async function seedLists(dbUrl: string, clienteId: string, produtoId: string, sacadoId: string, operations: number, cedentes: number)
  : Promise<Lists> {
  return asCustomer(dbUrl, clienteId, async (client) => {
    const made = await client.query<{ id: string }>(`INSERT INTO cedentes (cliente_id, tipo_pessoa, documento, razao_social, perfil_iof)
      SELECT $1::uuid, 'pj', lpad((100000 + g)::text, 12, '0') || '00', 'Cedente da lista ' || g, 'pj' FROM generate_series(1, $2::int) g
      RETURNING id`, [clienteId, cedentes])
    const ids = made.rows.map((r) => r.id)
    await client.query(`INSERT INTO operacoes (cliente_id, cedente_id, produto_id, data_operacao, estado, motivo_cancelamento, cancelada_em)
      SELECT $1::uuid, ($2::uuid[])[1 + g % $3::int], $4::uuid, date '${FIRST_DAY}' + (g % ${DAYS}),
        CASE WHEN g % 5 = 0 THEN 'cancelada' ELSE 'rascunho' END, CASE WHEN g % 5 = 0 THEN 'desistência' END, CASE WHEN g % 5 = 0 THEN now() END
      FROM generate_series(1, $5::int) g ORDER BY g`, [clienteId, ids, cedentes, produtoId, operations])
    await client.query(`INSERT INTO titulos (cliente_id, operacao_id, cedente_id, tipo, numero, sacado_id, emissao, vencimento, valor_face_centavos,
        saldo_centavos)
      SELECT o.cliente_id, o.id, o.cedente_id, 'duplicata_mercantil', 'L-' || o.numero || '-' || t, $2::uuid, o.data_operacao, o.data_operacao + 30 * t,
        100000 * t, 100000 * t
      FROM operacoes o CROSS JOIN generate_series(1, 3) t WHERE o.cliente_id = $1::uuid ORDER BY o.numero, t`, [clienteId, sacadoId])
    const q = new URLSearchParams({ estado: FILTER.estado, data_operacao_de: FILTER.de, data_operacao_ate: FILTER.ate, busca: FILTER.busca, limite: '50' })
    return { path: `/api/operacoes?${q}` }
  }, ['operacoes', 'titulos', 'cedentes'])
}

/** pgbench's script: the filtered list's first page of 50 (and the one after, to know there is more), its count, its títulos' totals. */
export function writeListsScript(dir: string, clienteId: string): string {
  const fold = (e: string) => `translate(lower(${e}), 'áàâãäåéèêëíìîïóòôõöúùûüçñ', 'aaaaaaeeeeiiiiooooouuuucn')`
  const where = `o.estado = '${FILTER.estado}' AND o.data_operacao >= '${FILTER.de}' AND o.data_operacao <= '${FILTER.ate}'
    AND (${fold('coalesce(o.id_externo, \'\')')} LIKE '%${FILTER.busca}%' OR EXISTS (SELECT 1 FROM cedentes c WHERE c.id = o.cedente_id
      AND (${fold('c.razao_social')} LIKE '%${FILTER.busca}%' OR ${fold('coalesce(c.nome_fantasia, \'\')')} LIKE '%${FILTER.busca}%')))`
  const script = `BEGIN;
SELECT set_config('app.cliente_id', '${clienteId}', true);
SELECT o.* FROM operacoes o WHERE ${where} ORDER BY o.numero DESC LIMIT 51;
SELECT count(*) FROM operacoes o WHERE ${where};
SELECT t.operacao_id, count(*)::int, sum(t.valor_face_centavos) FROM titulos t WHERE t.operacao_id IN (
  SELECT o.id FROM operacoes o WHERE ${where} ORDER BY o.numero DESC LIMIT 50) GROUP BY t.operacao_id;
COMMIT;
`.replace(/\n(?!SELECT|COMMIT)/g, ' ')
  const file = `${dir}/lists.pgbench.sql`
  writeFileSync(file, script)
  return file
}

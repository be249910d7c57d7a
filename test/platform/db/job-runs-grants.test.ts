// The job runs table (migration 0013) is the platform's, not a customer's; the runtime role may do with it exactly
// what src/platform/jobs/runs.ts does: read, claim (insert), record the outcome (four columns), forget old runs (delete).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { RUNTIME_ROLE } from '../../../src/platform/db/runtime-role.ts'
import { dbError } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

describe('execucoes_tarefa and the runtime role', () => {
  const tdb = useTestDatabase()

  it('no cliente_id and no row security; SELECT, INSERT, DELETE, UPDATE of the outcome\'s columns only', async () => {
    const [table] = await queryRows<Record<string, unknown>>(tdb.db.orm, sql.raw(`
      SELECT c.relrowsecurity AS rls,
             EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'cliente_id') AS cliente,
             ${['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']
    .map((p) => `has_table_privilege('${RUNTIME_ROLE}', c.oid, '${p}') AS "${p}"`).join(', ')},
             has_sequence_privilege('${RUNTIME_ROLE}', 'execucoes_tarefa_id_seq', 'USAGE') AS sequence
        FROM pg_class c WHERE c.relname = 'execucoes_tarefa'`))
    assert.deepEqual(table, {
      rls: false, cliente: false, SELECT: true, INSERT: true, UPDATE: false, DELETE: true, TRUNCATE: false, REFERENCES: false, TRIGGER: false, sequence: true,
    })
    const updatable = await queryRows<{ attname: string }>(tdb.db.orm, sql.raw(`
      SELECT attname FROM pg_attribute WHERE attrelid = 'execucoes_tarefa'::regclass AND attnum > 0 AND NOT attisdropped
         AND has_column_privilege('${RUNTIME_ROLE}', attrelid, attnum, 'UPDATE') ORDER BY attname`))
    assert.deepEqual(updatable.map((r) => r.attname), ['contagem', 'erro', 'resultado', 'terminada_em'])
    await assert.rejects(tdb.db.orm.execute(sql`UPDATE execucoes_tarefa SET iniciada_em = now()`), dbError('42501', /permission denied/))
  })
})

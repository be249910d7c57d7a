// The installation's secret (instalacao.segredo, made by migration 0007 from pg_strong_random), shared by every
// instance through the database, so keys derived from it agree everywhere without another setting to deploy.
// Each use derives a key of its own with a label (src/platform/lib/derived-key.ts).
import type { Orm } from '../../platform/db/database.ts'
import { instalacao } from '../../platform/db/schema.ts'

export async function readInstallationSecret(orm: Orm): Promise<string> {
  const [row] = await orm.select({ segredo: instalacao.segredo }).from(instalacao)
  if (!row) throw new Error('the instalacao row is missing: the database was not migrated')
  return row.segredo
}

// Tokens of the site's contact form minted as a page served at a chosen time would carry them (same key,
// read from the test database), so a test needs no sleeping to show a person's fill time.
import { eq } from 'drizzle-orm'
import { instalacao } from '../../../../src/platform/db/schema.ts'
import type { Database } from '../../../../src/platform/db/database.ts'
import { makeFormTokens } from '../../../../src/modules/contact/spam/token.ts'

export async function tokenServedAgo(db: Database, ms: number): Promise<string> {
  const tokens = makeFormTokens(async () => (await db.orm.select({ s: instalacao.salIp }).from(instalacao).where(eq(instalacao.id, true)))[0]!.s)
  await tokens.load()
  return tokens.issue(new Date(Date.now() - ms))
}

/** A token with its MAC altered: what a bot that copies the field's shape but not the key would send. */
export function forged(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A'
  return token.slice(0, -1) + last
}

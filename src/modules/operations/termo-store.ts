// The signed assignment term's file (migration 0031): its bytes, their SHA-256 computed here, the type it was sent
// as, kept per operation under the customer's row security. The bytes are read only to be downloaded.
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../platform/db/database.ts'

export type TermInfo = { sha256: string, tipo: string, nomeArquivo: string | null, tamanhoBytes: number, enviadoEm: Date }
export type TermFile = TermInfo & { conteudo: Buffer }

/**
 * The types served as sent: a PDF or a scan. Anything else is kept and served as application/octet-stream, so a
 * file sent as text/html or image/svg+xml never runs as a page of this origin when opened.
 */
export const TERM_TYPES: ReadonlySet<string> = new Set(['application/pdf', 'image/png', 'image/jpeg'])

/** The media type a term is kept and served as. */
export function termType(contentType: string | undefined): string {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return TERM_TYPES.has(media) ? media : 'application/octet-stream'
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

type Row = { sha256: string, tipo: string, nome_arquivo: string | null, tamanho_bytes: number, enviado_em: Date | string }
const info = (r: Row): TermInfo => ({ sha256: r.sha256, tipo: r.tipo, nomeArquivo: r.nome_arquivo, tamanhoBytes: Number(r.tamanho_bytes),
  enviadoEm: new Date(r.enviado_em) })

/** Keeps (or replaces) the operation's term; `sha256` is its bytes' (hashed once, as the body was read). */
export async function saveTerm(tx: Orm, t: {
  clienteId: string, operacaoId: string, tipo: string, nomeArquivo: string | null, bytes: Buffer, sha256: string,
}, now: Date): Promise<TermInfo> {
  const [row] = await queryRows<Row>(tx, sql`INSERT INTO operacao_termos
      (cliente_id, operacao_id, sha256, tipo, nome_arquivo, tamanho_bytes, conteudo, enviado_em)
    VALUES (${t.clienteId}, ${t.operacaoId}, ${t.sha256}, ${t.tipo}, ${t.nomeArquivo}, ${t.bytes.length}, ${t.bytes}, ${now})
    ON CONFLICT (cliente_id, operacao_id) DO UPDATE SET sha256 = EXCLUDED.sha256, tipo = EXCLUDED.tipo, nome_arquivo = EXCLUDED.nome_arquivo,
      tamanho_bytes = EXCLUDED.tamanho_bytes, conteudo = EXCLUDED.conteudo, enviado_em = EXCLUDED.enviado_em
    RETURNING sha256, tipo, nome_arquivo, tamanho_bytes, enviado_em`)
  return info(row!)
}

/** What is known of the operation's term, without its bytes; undefined when none was sent. */
export async function termInfo(tx: Orm, operacaoId: string): Promise<TermInfo | undefined> {
  const [row] = await queryRows<Row>(tx, sql`SELECT sha256, tipo, nome_arquivo, tamanho_bytes, enviado_em FROM operacao_termos
    WHERE operacao_id = ${operacaoId}`)
  return row ? info(row) : undefined
}

/** The term with its bytes (either driver's binary, as a Buffer). */
export async function termFile(tx: Orm, operacaoId: string): Promise<TermFile | undefined> {
  const [row] = await queryRows<Row & { conteudo: Uint8Array }>(tx, sql`SELECT sha256, tipo, nome_arquivo, tamanho_bytes, enviado_em, conteudo
    FROM operacao_termos WHERE operacao_id = ${operacaoId}`)
  if (!row) return undefined
  const c = row.conteudo
  return { ...info(row), conteudo: Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength) }
}

export const termView = (t: TermInfo) => ({
  sha256: t.sha256, tipo: t.tipo, nome_arquivo: t.nomeArquivo, tamanho_bytes: t.tamanhoBytes, enviado_em: t.enviadoEm.toISOString(),
})

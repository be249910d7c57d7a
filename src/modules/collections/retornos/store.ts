// The retornos' rows (migration 0039): a file's header row and its títulos' lines, written in the upload's
// transaction, and read back for the answer, the list and the page. Raw SQL: the lines go in by thousands at a time
// (unnest of arrays, one statement a slice), and every read is one statement.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import type { ResumoRetorno, TituloRetornado } from '../cnab/retorno240.ts'

export interface NovoRetorno {
  clienteId: string
  contaCobrancaId: string
  sha256: string
  layout: '240' | '400'
  bytes: number
}

export interface Retorno {
  id: string
  seq: number
  contaCobrancaId: string
  sha256: string
  layout: '240' | '400'
  nsa: string
  dataGeracao: string | null
  bytes: number
  registros: number
  titulos: number
  estado: 'aplicando' | 'aplicado'
  aplicadas: number
  ignoradas: number
  criadoEm: Date
  concluidoEm: Date | null
}

type RetornoRow = {
  id: string, seq: string, conta_cobranca_id: string, sha256: string, layout: '240' | '400', nsa: string, data_geracao: string | null, bytes: number,
  registros: number, titulos: number, estado: 'aplicando' | 'aplicado', aplicadas: number, ignoradas: number, criado_em: string, concluido_em: string | null
}

const RETORNO_COLUMNS = sql`id, seq::text AS seq, conta_cobranca_id, sha256, layout, nsa, data_geracao::text AS data_geracao, bytes, registros, titulos,
  estado, aplicadas, ignoradas, criado_em::text AS criado_em, concluido_em::text AS concluido_em`

const retornoOf = (r: RetornoRow): Retorno => ({
  id: r.id, seq: Number(r.seq), contaCobrancaId: r.conta_cobranca_id, sha256: r.sha256, layout: r.layout, nsa: r.nsa, dataGeracao: r.data_geracao,
  bytes: r.bytes, registros: r.registros, titulos: r.titulos, estado: r.estado, aplicadas: r.aplicadas, ignoradas: r.ignoradas,
  criadoEm: new Date(r.criado_em), concluidoEm: r.concluido_em ? new Date(r.concluido_em) : null,
})

/**
 * The file's row, written once its trailer has been read (its lines go in before it, under the id given): a file
 * without títulos is applied as it is stored.
 */
// The NSA as a number is said ("retorno 7"), without the file's leading zeros.
export async function insertRetorno(tx: Orm, id: string, r: NovoRetorno, s: ResumoRetorno, now: Date): Promise<void> {
  const done = s.titulos === 0
  await tx.execute(sql`INSERT INTO retornos (id, cliente_id, conta_cobranca_id, sha256, layout, nsa, data_geracao, bytes, registros, titulos, estado,
      criado_em, concluido_em)
    VALUES (${id}::uuid, ${r.clienteId}::uuid, ${r.contaCobrancaId}::uuid, ${r.sha256}, ${r.layout}, ${s.nsa.trim().replace(/^0+(?=\d)/, '')}, ${s.dataGeracao ?? null}::date, ${r.bytes},
      ${s.registros}, ${s.titulos}, ${done ? 'aplicado' : 'aplicando'}, ${now.toISOString()}::timestamptz, ${done ? now.toISOString() : null}::timestamptz)`)
}

const nullable = (d: string | undefined) => d ?? null

/** A slice of the file's títulos, in one statement. */
export async function insertLines(tx: Orm, clienteId: string, retornoId: string, contaId: string, lines: readonly TituloRetornado[]): Promise<void> {
  if (!lines.length) return
  // Each column one parameter (an array): sql.param, or drizzle would spread the array into a list of parameters.
  const col = <T>(f: (l: TituloRetornado) => T) => sql.param(lines.map(f))
  const money = (f: (l: TituloRetornado) => bigint) => col((l) => f(l).toString())
  await tx.execute(sql`INSERT INTO retorno_linhas (cliente_id, retorno_id, conta_cobranca_id, linha, codigo, ocorrencia, nosso_numero, sequencia,
      seu_numero, vencimento, data_ocorrencia, data_credito, motivos, valor_titulo_centavos, pago_centavos, liquido_centavos, juros_multa_centavos,
      desconto_centavos, abatimento_centavos, tarifa_centavos, outras_despesas_centavos, outros_creditos_centavos)
    SELECT ${clienteId}::uuid, ${retornoId}::uuid, ${contaId}::uuid, linha, codigo, ocorrencia, nosso_numero, sequencia, seu_numero, vencimento,
        data_ocorrencia, data_credito, string_to_array(motivos, ' '), valor_titulo, pago, liquido, juros_multa, desconto, abatimento, tarifa,
        outras_despesas, outros_creditos
      FROM unnest(${col((l) => l.linha)}::int[], ${col((l) => l.codigo)}::text[], ${col((l) => l.ocorrencia)}::text[],
        ${col((l) => l.nossoNumero)}::text[], ${col((l) => l.sequencia)}::text[], ${col((l) => l.seuNumero)}::text[],
        ${col((l) => nullable(l.vencimento))}::date[], ${col((l) => nullable(l.dataOcorrencia))}::date[], ${col((l) => nullable(l.dataCredito))}::date[],
        ${col((l) => l.motivos.filter(Boolean).join(' '))}::text[],
        ${money((l) => l.valorTituloCentavos)}::bigint[], ${money((l) => l.pagoCentavos)}::bigint[], ${money((l) => l.liquidoCentavos)}::bigint[],
        ${money((l) => l.jurosMultaCentavos)}::bigint[], ${money((l) => l.descontoCentavos)}::bigint[], ${money((l) => l.abatimentoCentavos)}::bigint[],
        ${money((l) => l.tarifaCentavos)}::bigint[], ${money((l) => l.outrasDespesasCentavos)}::bigint[], ${money((l) => l.outrosCreditosCentavos)}::bigint[])
      AS u(linha, codigo, ocorrencia, nosso_numero, sequencia, seu_numero, vencimento, data_ocorrencia, data_credito, motivos, valor_titulo, pago, liquido,
        juros_multa, desconto, abatimento, tarifa, outras_despesas, outros_creditos)`)
}

export async function retornoBySha(tx: Orm, contaId: string, sha256: string): Promise<Retorno | undefined> {
  const [row] = await queryRows<RetornoRow>(tx, sql`SELECT ${RETORNO_COLUMNS} FROM retornos WHERE conta_cobranca_id = ${contaId}::uuid AND sha256 = ${sha256}`)
  return row && retornoOf(row)
}

export async function getRetorno(tx: Orm, id: string, lock = false): Promise<Retorno | undefined> {
  const [row] = await queryRows<RetornoRow>(tx, sql`SELECT ${RETORNO_COLUMNS} FROM retornos WHERE id = ${id}::uuid ${lock ? sql`FOR UPDATE` : sql``}`)
  return row && retornoOf(row)
}

export async function listRetornos(tx: Orm, f: { contaCobrancaId?: string, estado?: string }, page: { limit: number, before?: number }) {
  const rows = await queryRows<RetornoRow>(tx, sql`SELECT ${RETORNO_COLUMNS} FROM retornos
    WHERE true ${f.contaCobrancaId ? sql`AND conta_cobranca_id = ${f.contaCobrancaId}::uuid` : sql``}
      ${f.estado ? sql`AND estado = ${f.estado}` : sql``} ${page.before ? sql`AND seq < ${page.before}` : sql``}
    ORDER BY seq DESC LIMIT ${page.limit + 1}`)
  return rows.map(retornoOf)
}

export interface LinhaRetorno {
  linha: number
  codigo: string
  ocorrencia: string
  nossoNumero: string
  seuNumero: string
  dataOcorrencia: string | null
  dataCredito: string | null
  motivos: string[]
  pagoCentavos: bigint
  jurosMultaCentavos: bigint
  descontoCentavos: bigint
  abatimentoCentavos: bigint
  tarifaCentavos: bigint
  resultado: 'pendente' | 'aplicada' | 'ignorada'
  motivo: string | null
  detalhe: string | null
  cobrancaId: string | null
  tituloId: string | null
  lancamentoId: string | null
  estornadaEm: Date | null
}

type LinhaRow = {
  linha: number, codigo: string, ocorrencia: string, nosso_numero: string, seu_numero: string, data_ocorrencia: string | null, data_credito: string | null,
  motivos: string, pago: string, juros_multa: string, desconto: string, abatimento: string, tarifa: string, resultado: LinhaRetorno['resultado'],
  motivo: string | null, detalhe: string | null, cobranca_id: string | null, titulo_id: string | null, lancamento_id: string | null, estornada_em: string | null
}

/** The file's lines from `after` on, in the file's order, optionally only those with one result. */
export async function listLines(tx: Orm, retornoId: string, f: { resultado?: string, after?: number, limit: number }): Promise<LinhaRetorno[]> {
  const rows = await queryRows<LinhaRow>(tx, sql`SELECT linha, codigo, ocorrencia, nosso_numero, seu_numero, data_ocorrencia::text AS data_ocorrencia,
      data_credito::text AS data_credito, array_to_string(motivos, ' ') AS motivos, pago_centavos::text AS pago, juros_multa_centavos::text AS juros_multa,
      desconto_centavos::text AS desconto, abatimento_centavos::text AS abatimento, tarifa_centavos::text AS tarifa, resultado, motivo, detalhe,
      cobranca_id, titulo_id, lancamento_id, estornada_em::text AS estornada_em
    FROM retorno_linhas WHERE retorno_id = ${retornoId}::uuid ${f.resultado ? sql`AND resultado = ${f.resultado}` : sql``}
      ${f.after ? sql`AND linha > ${f.after}` : sql``}
    ORDER BY linha LIMIT ${f.limit}`)
  return rows.map((r) => ({
    linha: r.linha, codigo: r.codigo, ocorrencia: r.ocorrencia, nossoNumero: r.nosso_numero, seuNumero: r.seu_numero, dataOcorrencia: r.data_ocorrencia,
    dataCredito: r.data_credito, motivos: r.motivos ? r.motivos.split(' ') : [], pagoCentavos: BigInt(r.pago), jurosMultaCentavos: BigInt(r.juros_multa),
    descontoCentavos: BigInt(r.desconto), abatimentoCentavos: BigInt(r.abatimento), tarifaCentavos: BigInt(r.tarifa), resultado: r.resultado,
    motivo: r.motivo, detalhe: r.detalhe, cobrancaId: r.cobranca_id, tituloId: r.titulo_id, lancamentoId: r.lancamento_id,
    estornadaEm: r.estornada_em ? new Date(r.estornada_em) : null,
  }))
}

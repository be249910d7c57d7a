// The product's data for the quote scenarios, made through the customers' API as an integration makes it: a
// product on the contract's terms, a cedente, a sacado, and operations of N títulos each (due dates spread over
// five months, the acceptance example's kinds and amounts).
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'

const TERMS = {
  base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800, tac_centavos: 15000,
  dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2 }, iof: 'calcular',
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>

export function apiCaller(base: string, token: string): Call {
  return async (method, path, body) => {
    const res = await fetch(base + path, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return text ? JSON.parse(text) as Record<string, unknown> : {}
  }
}

/** Today in Brasília plus `days`, as YYYY-MM-DD. */
export function day(days: number): string {
  const brasilia = new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000)
  return brasilia.toISOString().slice(0, 10)
}

/** The títulos fall due from 20 to 20 + LAST_DUE - 1 days after today; a quote looks 40 days past the last for holidays. */
export const LAST_DUE = 150
export const holidayWindow = () => ({ de: day(0), ate: day(20 + LAST_DUE - 1 + 40) })

export type ProductData = { produto: string, cedente: string, sacado: string }

/** A product, a cedente and a sacado of the customer. */
export async function productData(call: Call): Promise<ProductData> {
  const produto = await call('POST', '/api/produtos', { nome: 'Produto do bench', ...TERMS })
  const cedente = await call('POST', '/api/cedentes', { documento: '11.222.333/0001-81', razao_social: 'Cedente do bench Ltda', perfil_iof: 'pj' })
  const sacado = await call('POST', '/api/sacados', { documento: '111.444.777-35', razao_social: 'Sacado do bench', municipio_ibge: '3550308' })
  return { produto: produto.id as string, cedente: cedente.id as string, sacado: sacado.id as string }
}

/** Títulos `from` to `from + count - 1` of operation number `o`, as the API takes them. */
export function titulosFor(data: ProductData, o: number, from: number, count: number) {
  const tipos = ['duplicata_mercantil', 'duplicata_servico', 'cheque']
  return Array.from({ length: count }, (_, i) => from + i).map((n) => ({
    tipo: tipos[n % 3], numero: `B-${o}-${n}-${randomUUID().slice(0, 6)}`, sacado_id: data.sacado, emissao: day(0), vencimento: day(20 + (n % LAST_DUE)),
    valor_face_centavos: 1_000_000 + n * 1_250,
  }))
}

/** `count` draft operations of `titles` títulos each (at most a request's thousand); answers their ids. */
export async function draftOperations(call: Call, data: ProductData, count: number, titles: number): Promise<string[]> {
  const ids: string[] = []
  for (let o = 0; o < count; o++) {
    const titulos = titulosFor(data, o, 0, titles)
    const op = await call('POST', '/api/operacoes', { cedente_id: data.cedente, produto_id: data.produto, titulos })
    ids.push(op.id as string)
  }
  return ids
}

/** What a quote's transaction reads besides the operation: the ids and the window of days it looks in. */
export type QuoteContext = { clienteId: string, tokenId: string, data: ProductData, holidays: { de: string, ate: string } }

/**
 * pgbench scripts of the statements POST /api/operacoes/{id}/cotacao runs (src/modules/operations/flow/quote.ts, the
 * route's lock, the audit row), one script per operation, in the customer's transaction: the lock, the títulos, the
 * product's latest version, the cedente, the IOF table, the sacados, the customer's holidays, the new quote (with a
 * real quote's calculation as its JSON, not read back), the operation's new state, the installation's salt and the
 * audit row. The version is read under the lock, as the service reads it. The service sends the reads in two round
 * trips and the writes in one; pgbench sends each on its own. Answers the scripts' paths, each with its weight.
 */
export function writeQuoteScripts(dir: string, q: QuoteContext, operations: readonly string[], sample: Record<string, unknown>): string[] {
  const totais = sample.totais as Record<string, number>
  // Indented, so no `":null` reads as pgbench's `:variable`; a string holding `:word` itself is refused, not mangled.
  const json = JSON.stringify(sample, null, 1).replace(/'/g, "''")
  if (/:[A-Za-z_]/.test(json)) throw new Error('the sample quote holds text pgbench would read as a variable')
  return operations.map((op, i) => {
    const file = `${dir}/cotacao-${i}.pgbench.sql`
    writeFileSync(file, `BEGIN;
SELECT set_config('app.cliente_id', '${q.clienteId}', true);
SELECT cotacao_versao FROM operacoes WHERE id = '${op}' FOR UPDATE \\gset
SELECT * FROM titulos WHERE operacao_id = '${op}' ORDER BY seq;
SELECT v.* FROM produto_versoes v JOIN produtos p ON p.id = v.produto_id AND p.versao_atual = v.versao WHERE p.id = '${q.data.produto}';
SELECT * FROM cedentes WHERE id = '${q.data.cedente}';
SELECT perfil, vigencia_inicio::text, vigencia_fim::text, taxa_diaria::text, taxa_adicional::text, fonte FROM iof_vigencias ORDER BY perfil, vigencia_inicio;
SELECT * FROM sacados WHERE id = ANY('{${q.data.sacado}}'::uuid[]) ORDER BY id;
SELECT * FROM feriados WHERE data >= '${q.holidays.de}' AND data <= '${q.holidays.ate}' ORDER BY data, criado_em;
\\set versao :cotacao_versao + 1
INSERT INTO cotacoes (cliente_id, operacao_id, versao, produto_versao, valida_ate, valor_face_centavos, desagio_centavos,
    ad_valorem_centavos, tarifas_centavos, tac_centavos, iof_centavos, valor_liquido_centavos, calculo, criado_em)
  VALUES ('${q.clienteId}', '${op}', :versao, 1, now() + interval '1 day', ${totais.valor_face_centavos}, ${totais.desagio_centavos},
    ${totais.ad_valorem_centavos}, ${totais.tarifas_centavos}, ${totais.tac_centavos}, ${totais.iof_centavos}, ${totais.valor_liquido_centavos},
    '${json}', now()) RETURNING id, cliente_id, operacao_id, versao, produto_versao, valida_ate, valor_face_centavos, desagio_centavos,
    ad_valorem_centavos, tarifas_centavos, tac_centavos, iof_centavos, valor_liquido_centavos, criado_em;
UPDATE operacoes SET estado = 'cotada', cotacao_versao = :versao, atualizado_em = now() WHERE id = '${op}';
SELECT sal_ip FROM instalacao;
INSERT INTO auditoria_cliente (cliente_id, em, ator_tipo, ator_id, acao, alvo_id, request_id, request_id_cliente, ip_hash)
  VALUES ('${q.clienteId}', now(), 'token', '${q.tokenId}', 'operacao.cotada', '${op}', md5(random()::text), NULL, md5(random()::text));
COMMIT;
`)
    return file
  })
}

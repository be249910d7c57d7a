// Applying a large CNAB retorno (issue 33: "applying a 100,000-line retorno: at least 0.3 of pgbench running the same
// statements, with the service's RSS growing by less than 100 MB while it runs; boletos rendered per second (HTML and
// PDF) reported"). The customer gets a Banco do Brasil collection account and one registered charge per acquired
// título, written by SQL as an import would (the same rows the API writes); the built service is then sent a 240
// retorno of 100,000 lines (50,000 títulos, a T and a U segment each) liquidating every one of them, and its wall time
// from the upload to the last line applied is timed while its RSS is sampled. pgbench runs the statements one line's
// application runs (src/modules/collections/retornos/apply.ts: the charge and título locked, the occurrence's
// once-check, the entry and its lines, the título, the charge and the line marked), one line a transaction, as the
// runtime role in the customer's tenant, on lines of their own. The ratio is the service's lines per second over
// pgbench's. Last, wrk asks for the boleto of a charge as HTML and as PDF.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { asCustomer } from './as-customer.ts'
import { retornoSandbox240, type MovimentoSandbox } from '../../src/modules/collections/sandbox/retorno240.ts'
import { rssMb } from './processes.ts'
import { parsePgbench, pinned, runCaptured, wrk } from './wrk.ts'

export type RetornoResult = {
  titulos: number, lines: number, bytes: number, service_seconds: number, service_lines_per_s: number, pgbench_lines_per_s: number,
  ratio: number, target: number, rss_before_mb: number | null, rss_max_mb: number | null, rss_growth_mb: number | null, rss_target_mb: number,
  boleto_html_rps: number, boleto_pdf_rps: number, ok: boolean,
}

export type RetornoDeps = {
  base: string, dbUrl: string, clienteId: string, token: string, operacaoId: string, cedenteId: string, sacadoId: string, outDir: string,
  servicePid: number | undefined, serverCpu: number | undefined, loadCpu: number | undefined, quick: boolean, log: (line: string) => void,
}

const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING DO BENCH' }
const VENCIMENTO = '2027-01-15'
const ZEROS_44 = '0'.repeat(44)
const LINHA = '00000.00000 00000.000000 00000.000000 0 00000000000000'

/** The account and `count` registered charges, each of an acquired título of `valor` centavos: the account's id. */
async function seed(d: RetornoDeps, count: number, valor: number): Promise<string> {
  return asCustomer(d.dbUrl, d.clienteId, async (c) => {
    const [conta] = (await c.query<{ id: string }>(`INSERT INTO contas_cobranca (cliente_id, nome, banco, agencia, conta, conta_digito, carteira, convenio,
        layout_cnab, incluida_por_usuario_id)
      VALUES ($1, 'BB do bench', '001', '3064', '123456', 'X', '17', '1234567', '240', gen_random_uuid()) RETURNING id`, [d.clienteId])).rows
    await c.query(`INSERT INTO titulos (cliente_id, operacao_id, cedente_id, tipo, numero, sacado_id, emissao, vencimento, valor_face_centavos,
        saldo_centavos, estado, desagio_centavos, desagio_dias)
      SELECT $1::uuid, $2::uuid, $3::uuid, 'duplicata_mercantil', 'R-' || g, $4::uuid, DATE '2026-12-01', DATE '${VENCIMENTO}', $5, $5, 'adquirido',
        1000, 45
      FROM generate_series(1, $6::int) g`, [d.clienteId, d.operacaoId, d.cedenteId, d.sacadoId, valor, count])
    await c.query(`INSERT INTO cobrancas (cliente_id, titulo_id, conta_cobranca_id, nosso_numero, nosso_numero_impresso, codigo_barras,
        linha_digitavel, valor_centavos, vencimento, juros_tipo, estado)
      SELECT $1::uuid, t.id, $2::uuid, substr(t.numero, 3), '1234567' || lpad(substr(t.numero, 3), 10, '0'), '${ZEROS_44}', '${LINHA}', $3,
        DATE '${VENCIMENTO}', 'isento', 'registrada'
      FROM titulos t WHERE t.numero LIKE 'R-%'`, [d.clienteId, conta!.id, valor])
    return conta!.id
  })
}

/** The statements of one line's application, in the customer's transaction as the runtime role, on line :n of a retorno of pgbench's own. */
function pgbenchScript(d: RetornoDeps, contaId: string, retornoId: string, count: number): string {
  const day = "DATE '2026-12-21'"
  const line = (conta: string, debito: number, credito: number) =>
    `('${d.clienteId}', :id::uuid, ${day}, :seq, '${conta}', NULL, ${debito}, ${credito})`
  return [
    `\\set n random(1, ${count})`,
    'BEGIN;',
    `SELECT set_config('app.cliente_id', '${d.clienteId}', true);`,
    `SELECT pg_try_advisory_xact_lock(hashtext('retorno'), hashtext('${retornoId}'));`,
    `SELECT nsa, titulos, aplicadas, ignoradas FROM retornos WHERE id = '${retornoId}' FOR UPDATE;`,
    `SELECT linha, conta_cobranca_id, codigo, ocorrencia, nosso_numero, sequencia, data_ocorrencia::text, data_credito::text,
      array_to_string(motivos, ' '), pago_centavos::text, juros_multa_centavos::text, desconto_centavos::text, abatimento_centavos::text,
      tarifa_centavos::text, outras_despesas_centavos::text, outros_creditos_centavos::text
    FROM retorno_linhas WHERE retorno_id = '${retornoId}' AND linha = :n;`,
    `SELECT c.id AS cid, c.numero::text AS cnum, c.estado AS cest, c.titulo_id AS tid, t.numero AS tnum, t.estado AS test,
      t.saldo_centavos::text AS saldo, t.cedente_id AS ced, (coalesce(t.desagio_centavos, 0) - t.desagio_apropriado_centavos)::text AS pend
    FROM cobrancas c JOIN titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
    WHERE c.conta_cobranca_id = '${contaId}' AND c.nosso_numero = (:n)::text FOR UPDATE OF c, t \\gset`,
    `SELECT r.nsa, x.linha FROM retorno_linhas x JOIN retornos r ON r.cliente_id = x.cliente_id AND r.id = x.retorno_id
    WHERE x.cobranca_id = :cid::uuid AND x.resultado = 'aplicada' AND x.conta_cobranca_id = '${contaId}' AND x.sequencia = (:n)::text AND x.codigo = '17'
      AND coalesce(x.data_ocorrencia, DATE '0001-01-01') = DATE '2026-12-20' LIMIT 1;`,
    `INSERT INTO lancamentos (cliente_id, data, historico, origem_tipo, origem_id, request_id, criado_em)
    VALUES ('${d.clienteId}', ${day}, 'Retorno 1: liquidação do bench', 'retorno', '${retornoId}', NULL, now()) RETURNING id, seq \\gset`,
    `INSERT INTO lancamento_linhas (cliente_id, lancamento_id, data, lancamento_seq, conta, cedente_id, debito_centavos, credito_centavos)
    VALUES ${[line('banco', 99_650, 0), line('despesas_bancarias', 350, 0), line('direitos_creditorios', 0, 100_000),
    line('desagio_a_apropriar', 1000, 0), line('receita_desagio', 0, 1000)].join(', ')};`,
    `UPDATE titulos SET saldo_centavos = saldo_centavos - 0, estado = estado, desagio_apropriado_centavos = desagio_apropriado_centavos + 0,
      atualizado_em = now() WHERE id = :tid::uuid;`,
    'UPDATE cobrancas SET estado = \'registrada\', atualizado_em = now() WHERE id = :cid::uuid;',
    `UPDATE retorno_linhas SET resultado = 'pendente', cobranca_id = NULL, titulo_id = NULL, lancamento_id = NULL, principal_centavos = 0,
      desagio_reconhecido_centavos = 0, aplicada_em = NULL WHERE retorno_id = '${retornoId}' AND linha = :n;`,
    `UPDATE retornos SET aplicadas = aplicadas, ignoradas = ignoradas, estado = 'aplicando', concluido_em = NULL WHERE id = '${retornoId}';`,
    'COMMIT;',
  ].join('\n') + '\n'
}

/** pgbench's own retorno: `count` pending lines, as an upload stores them, that its script applies again and again. */
async function pgbenchLines(d: RetornoDeps, contaId: string, count: number): Promise<string> {
  return asCustomer(d.dbUrl, d.clienteId, async (c) => {
    const [r] = (await c.query<{ id: string }>(`INSERT INTO retornos (cliente_id, conta_cobranca_id, sha256, layout, nsa, bytes, registros, titulos)
      VALUES ($1, $2, repeat('b', 64), '240', '1', 1, $3, $3) RETURNING id`, [d.clienteId, contaId, count])).rows
    await c.query(`INSERT INTO retorno_linhas (cliente_id, retorno_id, conta_cobranca_id, linha, codigo, ocorrencia, nosso_numero, sequencia, seu_numero,
        data_ocorrencia, pago_centavos)
      SELECT $1::uuid, $2::uuid, $3::uuid, g, '17', 'liquidacao', '1234567' || lpad(g::text, 10, '0'), g::text, 'R', DATE '2026-12-20', 100000
      FROM generate_series(1, $4::int) g`, [d.clienteId, r!.id, contaId, count])
    return r!.id
  })
}

export async function runRetorno(d: RetornoDeps): Promise<RetornoResult> {
  const titulos = d.quick ? 2_000 : 50_000
  const valor = 100_000
  d.log(`retorno: seeding ${titulos} charges`)
  const contaId = await seed(d, titulos, valor)
  await runCaptured(['psql', d.dbUrl, '-qc', 'ANALYZE titulos, cobrancas, retorno_linhas, retornos, lancamentos, lancamento_linhas'])
  const movimentos: MovimentoSandbox[] = Array.from({ length: titulos }, (_, i) => ({
    codigo: '06', sequencia: String(i + 1), seuNumero: `R-${i + 1}`, vencimento: VENCIMENTO, valorCentavos: BigInt(valor), pagoCentavos: BigInt(valor),
    tarifaCentavos: 350n, liquidoCentavos: BigInt(valor - 350), dataOcorrencia: '2026-12-20', dataCredito: '2026-12-21',
  }))
  const file = Buffer.from(retornoSandbox240(CONTA, 1, '2026-12-21', movimentos), 'latin1')
  const lines = file.toString('latin1').split('\r\n').filter(Boolean).length
  const auth = { authorization: `Bearer ${d.token}` }
  const get = async (path: string) => (await fetch(d.base + path, { headers: auth })).json() as Promise<Record<string, unknown>>

  const started = performance.now()
  const rssBefore = rssMb(d.servicePid)
  let rssMax = rssBefore
  let stored: number | undefined
  const timeline: [number, number][] = []
  const sampler = setInterval(() => {
    const now = rssMb(d.servicePid) ?? 0
    rssMax = Math.max(rssMax ?? 0, now)
    timeline.push([Math.round(performance.now() - started), now])
  }, 100)
  d.log(`retorno: sending ${lines} lines (${(file.length / 1e6).toFixed(1)} MB)`)
  let seconds: number
  try {
    const res = await fetch(`${d.base}/api/cnab/retornos?conta_cobranca_id=${contaId}`, {
      method: 'POST', headers: { authorization: `Bearer ${d.token}`, 'content-type': 'text/plain' }, body: file,
    })
    const made = await res.json() as { id: string, estado: string }
    stored = performance.now() - started
    if (res.status !== 202 && res.status !== 201) throw new Error(`the retorno was answered ${res.status}: ${JSON.stringify(made)}`)
    for (let r = made; r.estado !== 'aplicado'; r = await get(`/api/cnab/retornos/${made.id}`) as typeof made) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    seconds = (performance.now() - started) / 1000
    const done = await get(`/api/cnab/retornos/${made.id}`)
    if (done.aplicadas !== titulos) throw new Error(`the retorno applied ${String(done.aplicadas)} of ${titulos}: ${JSON.stringify(done)}`)
  } finally {
    clearInterval(sampler)
  }
  const serviceRate = titulos / seconds
  const every5s = timeline.filter((_, i) => i % 50 === 0).map(([t, r]) => `${(t / 1000).toFixed(0)}s ${r}`).join(', ')
  d.log(`retorno: ${titulos} títulos applied in ${seconds.toFixed(1)} s (${serviceRate.toFixed(0)} a second); stored and answered in `
    + `${((stored ?? 0) / 1000).toFixed(1)} s; RSS (MB) every 5 s: ${every5s}`)

  const retornoId = await pgbenchLines(d, contaId, titulos)
  const script = join(d.outDir, 'retorno.pgbench.sql')
  writeFileSync(script, pgbenchScript(d, contaId, retornoId, titulos))
  const pgSeconds = d.quick ? 2 : 20
  const argv = ['pgbench', '-n', '-M', 'extended', '-c1', '-j1', `-T${pgSeconds}`, '-f', script, d.dbUrl]
  const pgb = parsePgbench(await runCaptured(pinned(d.serverCpu, argv), { ...process.env, PGOPTIONS: '-c role=fct_servico' }))
  d.log(`retorno: pgbench of one line's statements, ${pgb.rps.toFixed(0)} lines a second`)

  const [charge] = (await get(`/api/cobrancas?conta_cobranca_id=${contaId}&limite=1`)).itens as { id: string }[]
  const boleto = (formato: string) => wrk({ url: `${d.base}/api/cobrancas/${charge!.id}/boleto?formato=${formato}`, seconds: d.quick ? 2 : 10,
    connections: 4, cpu: d.loadCpu, headers: [`Authorization: Bearer ${d.token}`] })
  const html = await boleto('html')
  const pdf = await boleto('pdf')
  d.log(`retorno: boletos ${html.rps.toFixed(0)} HTML and ${pdf.rps.toFixed(0)} PDF a second`)

  const ratio = serviceRate / pgb.rps
  const growth = rssMax !== null && rssBefore !== null ? rssMax - rssBefore : null
  return {
    titulos, lines, bytes: file.length, service_seconds: seconds, service_lines_per_s: serviceRate, pgbench_lines_per_s: pgb.rps, ratio, target: 0.3,
    rss_before_mb: rssBefore, rss_max_mb: rssMax, rss_growth_mb: growth, rss_target_mb: 100, boleto_html_rps: html.rps, boleto_pdf_rps: pdf.rps,
    ok: ratio >= 0.3 && growth !== null && growth < 100 && html.non2xx === 0 && pdf.non2xx === 0,
  }
}

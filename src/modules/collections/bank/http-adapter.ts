// The bank adapter over HTTP (adapter.ts): JSON requests to a bank's collection API, bounded by a timeout and by
// the size of the answer read; a 2xx is the bank's answer, a 4xx its refusal (final, with its code), anything else
// (5xx, a timeout, a refused connection) the bank being unavailable (tried again later). Spoken here to the sandbox
// bank's API (sandbox/bank-server.ts), whose routes it names; a real bank's client implements BankAdapter itself.
import type { BankAdapter, Falha, PedidoDeInstrucao, PedidoDeRegistro, Registro, Resultado, SituacaoNoBanco, ContaNoBanco } from './adapter.ts'

export interface HttpAdapterOptions {
  /** The bank API's base URL ("http://127.0.0.1:4010/sandbox-bank/v1"). */
  baseUrl: string
  token: string
  timeoutMs: number
  fetch?: typeof fetch
}

const MAX_ANSWER = 64 * 1024

export function httpBankAdapter(o: HttpAdapterOptions): BankAdapter {
  const doFetch = o.fetch ?? fetch
  async function call(method: string, path: string, body?: unknown): Promise<{ ok: true, status: number, json: unknown } | Falha> {
    let res: Response
    let text: string
    // The whole exchange, the answer's body too, within the timeout: a bank that stalls mid-body is as unavailable
    // as one that never answers.
    try {
      res = await doFetch(`${o.baseUrl}${path}`, {
        method, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs),
        headers: { authorization: `Bearer ${o.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) }),
      })
      text = await boundedText(res)
    } catch (err) {
      return { ok: false, tipo: 'indisponivel', motivo: (err as Error).name === 'TimeoutError' ? `sem resposta em ${o.timeoutMs} ms` : 'conexão recusada' }
    }
    const json = parseJson(text)
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, json }
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      const j = (json ?? {}) as { codigo?: string, motivo?: string }
      return { ok: false, tipo: 'recusada', codigo: j.codigo ?? String(res.status), motivo: j.motivo ?? `o banco respondeu ${res.status}`, resposta: json }
    }
    return { ok: false, tipo: 'indisponivel', motivo: `o banco respondeu ${res.status}` }
  }

  const conta = (c: ContaNoBanco) => ({ banco: c.banco, agencia: c.agencia, conta: c.conta, conta_digito: c.contaDigito, carteira: c.carteira,
    ...(c.convenio ? { convenio: c.convenio } : {}), ...(c.chavePix ? { chave_pix: c.chavePix } : {}) })

  return {
    async registrar(p: PedidoDeRegistro): Promise<Registro> {
      const r = await call('PUT', `/boletos/${encodeURIComponent(p.nossoNumero)}`, {
        conta: conta(p.conta), seu_numero: p.seuNumero, vencimento: p.vencimento, valor_centavos: p.valorCentavos, pagador: p.pagador,
        beneficiario: p.beneficiario, juros_dia_centavos: p.jurosDiaCentavos ?? 0n, multa: p.multa ?? '0', desconto: p.desconto ?? null,
      })
      if (!r.ok) return r
      const j = (r.json ?? {}) as { pix?: { txid?: string, location?: string, pix_copia_e_cola?: string } }
      if (!j.pix?.txid || !j.pix.location || !j.pix.pix_copia_e_cola) {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco sem o PIX da cobrança' }
      }
      return { ok: true, pix: { txid: j.pix.txid, location: j.pix.location, copiaECola: j.pix.pix_copia_e_cola }, resposta: r.json }
    },
    async instruir(p: PedidoDeInstrucao): Promise<Resultado> {
      const r = await call('POST', `/boletos/${encodeURIComponent(p.nossoNumero)}/instrucoes`, {
        id: p.id, conta: conta(p.conta), instrucao: p.instrucao, ...(p.vencimento ? { vencimento: p.vencimento } : {}),
        ...(p.abatimentoCentavos === undefined ? {} : { abatimento_centavos: p.abatimentoCentavos }),
      })
      return r.ok ? { ok: true, resposta: r.json } : r
    },
    async consultar(p: { conta: ContaNoBanco, nossoNumero: string }): Promise<SituacaoNoBanco> {
      const q = new URLSearchParams({ banco: p.conta.banco, conta: `${p.conta.agencia}-${p.conta.conta}`,
        ...(p.conta.convenio ? { convenio: p.conta.convenio } : {}) })
      const r = await call('GET', `/boletos/${encodeURIComponent(p.nossoNumero)}?${q}`)
      if (!r.ok) return r
      const j = (r.json ?? {}) as { situacao?: string, pago_centavos?: unknown, pago_em?: string }
      if (j.situacao !== 'registrada' && j.situacao !== 'liquidada' && j.situacao !== 'baixada') {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco sem a situação do boleto' }
      }
      if (j.pago_centavos !== undefined && !Number.isSafeInteger(j.pago_centavos)) {
        return { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco com um valor pago que não é um número de centavos' }
      }
      return { ok: true, situacao: j.situacao, ...(j.pago_centavos === undefined ? {} : { pagoCentavos: BigInt(j.pago_centavos as number) }),
        ...(j.pago_em ? { pagoEm: j.pago_em } : {}), resposta: r.json }
    },
  }
}

function parseJson(text: string): unknown {
  try { return text ? JSON.parse(text) : null } catch { return { corpo: text.slice(0, 200) } }
}

/** The answer's text, at most MAX_ANSWER bytes of it (a bank that answers endlessly is cut). */
async function boundedText(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > MAX_ANSWER) { await reader.cancel(); break }
    parts.push(value)
  }
  return Buffer.concat(parts).toString('utf8')
}

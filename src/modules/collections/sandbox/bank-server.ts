// SANDBOX BANK — not a bank (issue 33: "a clearly labelled sandbox bank … registers, answers with realistic delays
// and refusals, liquidates on request and writes retorno files"). An HTTP server holding its boletos in memory, for
// the `sandbox` environment and the tests: the API the HTTP adapter speaks (http-adapter.ts), and two routes no bank
// has (`/liquidacao`, pay a boleto; `/falhas`, make the next answers fail) that stand in for a payer and an outage.
// Every answer says `"sandbox": true`; its BR Codes name a reserved host and pay nobody.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readJsonObject } from '../../../platform/lib/read-json-object.ts'
import type { Banco } from '../boleto/bancos.ts'
import { dynamicBrCode } from '../pix/br-code.ts'
import { retornoSandbox240, type MovimentoSandbox } from './retorno240.ts'

export interface SandboxBankOptions {
  token: string
  /** Each answer waits between these many milliseconds (a bank's API is not instant). */
  atrasoMs?: [number, number]
  host?: string
  port?: number
  /**
   * The host the BR Codes' locations name: `pix.banco-sandbox.example` unless set (a reserved name, RFC 2606:
   * no payer's bank will ever fetch a cobv from it, which is what a sandbox's code must never lead to).
   */
  pixHost?: string
}

interface Boleto {
  chave: string
  banco: Banco
  agencia: string
  conta: string
  contaDigito: string
  convenio?: string
  nossoNumero: string
  seuNumero: string
  vencimento: string
  valorCentavos: number
  pedido: string
  txid: string
  situacao: 'registrada' | 'liquidada' | 'baixada'
  pagoCentavos?: number
  pagoEm?: string
}

export interface SandboxBank {
  url: string
  /** The next `n` requests answer 503, as a bank having a bad minute. */
  falhar(n: number): void
  /** Every answer waits `ms` more (a slow bank). */
  lentidao(ms: number): void
  close(): Promise<void>
  boletos(): number
}

const MAX_BODY = 64 * 1024

export async function startSandboxBank(o: SandboxBankOptions): Promise<SandboxBank> {
  const boletos = new Map<string, Boleto>()
  const movimentos = new Map<string, MovimentoSandbox[]>()
  let falhas = 0
  let extra = 0
  const token = Buffer.from(`Bearer ${o.token}`)

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    const text = type === 'application/json' ? JSON.stringify({ sandbox: true, ...(body as object) }) : String(body)
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'x-sandbox-bank': 'true' }).end(text)
  }
  const refuse = (res: ServerResponse, status: number, codigo: string, motivo: string) => send(res, status, { codigo, motivo })

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // The request read whole before the wait: a slow bank does what it was asked and answers late, and a client that
    // stopped waiting has lost the answer, not the request (what a retry by the same id or nosso número must survive).
    const read = await readJsonObject(req, MAX_BODY)
    const [lo, hi] = o.atrasoMs ?? [0, 0]
    await new Promise((r) => setTimeout(r, lo + Math.floor(Math.random() * (hi - lo + 1)) + extra))
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const auth = Buffer.from(req.headers.authorization ?? '')
    if (auth.length !== token.length || !timingSafeEqual(auth, token)) return refuse(res, 401, 'nao_autorizado', 'token do banco sandbox inválido')
    if (url.pathname === '/sandbox-bank/v1/falhas' && req.method === 'POST') {
      const n = Number(url.searchParams.get('n') ?? '1')
      if (!Number.isInteger(n) || n < 0 || n > 1000) return refuse(res, 400, 'falhas_invalidas', 'n é um inteiro de 0 a 1000')
      falhas += n
      return send(res, 200, { falhas })
    }
    if (falhas > 0) {
      falhas--
      return refuse(res, 503, 'indisponivel', 'banco sandbox fora do ar (falha pedida)')
    }
    const body = read
    if (body === undefined) return refuse(res, 400, 'corpo_invalido', 'corpo JSON inválido ou maior que 64 KiB')
    const m = /^\/sandbox-bank\/v1\/boletos\/([0-9]{1,20})(\/instrucoes|\/liquidacao)?$/.exec(url.pathname)
    const r = /^\/sandbox-bank\/v1\/retornos\/([0-9]{3})\/([0-9]{4})-([0-9]{1,12})$/.exec(url.pathname)
    if (m && req.method === 'PUT' && !m[2]) return registrar(res, m[1]!, body)
    if (m && req.method === 'GET' && !m[2]) return consultar(res, m[1]!, contaDaQuery(url.searchParams))
    if (m && req.method === 'POST' && m[2] === '/instrucoes') return instruir(res, m[1]!, body)
    if (m && req.method === 'POST' && m[2] === '/liquidacao') return liquidar(res, m[1]!, contaDaQuery(url.searchParams), body)
    if (r && req.method === 'GET') return retorno(res, r[1] as Banco, r[2]!, r[3]!)
    return refuse(res, 404, 'nao_encontrado', 'rota do banco sandbox desconhecida')
  }

  /**
   * Whose boletos: the bank and its beneficiary, which at Banco do Brasil, Santander and Caixa is the convênio and at
   * the others the agência and conta (a red team of issue 33 wrote off another bank's boleto when only the agência,
   * the conta and the nosso número were compared).
   */
  const beneficiario = (c: { banco?: string, agencia?: string, conta?: string, convenio?: string | undefined }) =>
    (['001', '033', '104'].includes(c.banco ?? '') && c.convenio ? `${c.banco}/c${c.convenio.replace(/^0+/, '')}` : `${c.banco}/${c.agencia}-${c.conta}`)

  function registrar(res: ServerResponse, nn: string, b: Record<string, unknown>) {
    const c = (b.conta ?? {}) as Record<string, string>
    const pagador = (b.pagador ?? {}) as { documento?: string, nome?: string }
    const benef = (b.beneficiario ?? {}) as { nome?: string, cidade?: string }
    const valor = Number(b.valor_centavos)
    if (!Number.isSafeInteger(valor) || valor <= 0) return refuse(res, 422, 'valor_invalido', 'o valor do boleto deve ser positivo')
    if (!/^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$/.test(pagador.documento ?? '')) return refuse(res, 422, 'pagador_invalido', 'CPF ou CNPJ do pagador inválido')
    if (typeof b.vencimento !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.vencimento)) return refuse(res, 422, 'vencimento_invalido', 'vencimento inválido')
    const chave = `${beneficiario(c)}/${nn}`
    const pedido = JSON.stringify({ c, nn, valor, vencimento: b.vencimento, pagador: pagador.documento })
    const held = boletos.get(chave)
    if (held && held.pedido !== pedido) return refuse(res, 409, 'nosso_numero_duplicado', 'nosso número já registrado com outros dados')
    const boleto = held ?? {
      chave, banco: c.banco as Banco, agencia: c.agencia ?? '', conta: c.conta ?? '', contaDigito: c.conta_digito ?? '0', convenio: c.convenio,
      nossoNumero: nn, seuNumero: String(b.seu_numero ?? ''), vencimento: b.vencimento, valorCentavos: valor, pedido, txid: randomBytes(16).toString('hex'),
      situacao: 'registrada' as const,
    }
    boletos.set(chave, boleto)
    const location = `${o.pixHost ?? 'pix.banco-sandbox.example'}/pix/v2/cobv/${boleto.txid}`
    const emv = dynamicBrCode({ location, nome: benef.nome ?? 'Beneficiario', cidade: benef.cidade ?? 'Sao Paulo' })
    return send(res, held ? 200 : 201, { nosso_numero: nn, situacao: boleto.situacao, pix: { txid: boleto.txid, location, pix_copia_e_cola: emv } })
  }

  /** The boleto of this beneficiary; `conta` alone (AGENCIA-CONTA, the payer's route) when no bank is named. */
  function find(nn: string, c: { banco?: string, agencia?: string, conta?: string, convenio?: string } | string): Boleto | undefined {
    if (typeof c !== 'string') return boletos.get(`${beneficiario(c)}/${nn}`)
    for (const b of boletos.values()) if (b.nossoNumero === nn && (!c || `${b.agencia}-${b.conta}` === c)) return b
    return undefined
  }

  /** The account a query names: the bank, AGENCIA-CONTA and the convênio; the AGENCIA-CONTA alone without a bank. */
  const contaDaQuery = (q: URLSearchParams) => {
    const [agencia, conta] = (q.get('conta') ?? '').split('-')
    const banco = q.get('banco')
    return banco ? { banco, agencia: agencia ?? '', conta: conta ?? '', ...(q.get('convenio') ? { convenio: q.get('convenio')! } : {}) } : q.get('conta') ?? ''
  }

  function consultar(res: ServerResponse, nn: string, conta: ReturnType<typeof contaDaQuery>) {
    const b = find(nn, conta)
    if (!b) return refuse(res, 404, 'boleto_desconhecido', 'nosso número não registrado')
    return send(res, 200, { nosso_numero: nn, situacao: b.situacao, ...(b.pagoCentavos ? { pago_centavos: b.pagoCentavos, pago_em: b.pagoEm } : {}) })
  }

  // An instruction is answered once by its id: a repeat (a retry after a lost answer) gets the first answer.
  const instrucoes = new Map<string, { status: number, body: Record<string, unknown> }>()
  function instruir(res: ServerResponse, nn: string, body: Record<string, unknown>) {
    const id = typeof body.id === 'string' ? body.id : undefined
    const held = id === undefined ? undefined : instrucoes.get(id)
    if (held) return send(res, held.status, held.body)
    const answer = (status: number, out: Record<string, unknown>) => {
      if (id !== undefined) instrucoes.set(id, { status, body: out })
      return send(res, status, out)
    }
    const c = (body.conta ?? {}) as Record<string, string>
    const b = find(nn, c)
    if (!b) return answer(404, { codigo: 'boleto_desconhecido', motivo: 'nosso número não registrado' })
    if (b.situacao !== 'registrada') return answer(409, { codigo: 'boleto_encerrado', motivo: `boleto ${b.situacao}: não aceita instrução` })
    if (body.instrucao === 'baixa') b.situacao = 'baixada'
    if (body.instrucao === 'alteracao_vencimento' && typeof body.vencimento === 'string') b.vencimento = body.vencimento
    mover(b, { codigo: body.instrucao === 'baixa' ? '09' : '14' })
    return answer(200, { nosso_numero: nn, situacao: b.situacao, instrucao: body.instrucao })
  }

  function liquidar(res: ServerResponse, nn: string, conta: ReturnType<typeof contaDaQuery>, body: Record<string, unknown>) {
    // The account too (`?conta=AGENCIA-CONTA`, and `&banco=` with `&convenio=` where the bank has one): the same nosso
    // número may be two accounts' boletos.
    const named = typeof conta === 'string' ? conta : `${conta.agencia}-${conta.conta}`
    if (!/^[0-9]{4}-[0-9]{1,12}$/.test(named)) return refuse(res, 400, 'conta_invalida', 'informe ?conta=AGENCIA-CONTA')
    const b = find(nn, conta)
    if (!b) return refuse(res, 404, 'boleto_desconhecido', 'nosso número não registrado')
    if (b.situacao !== 'registrada') return refuse(res, 409, 'boleto_encerrado', `boleto ${b.situacao}`)
    const pago = Number(body.valor_centavos ?? b.valorCentavos)
    if (!Number.isSafeInteger(pago) || pago <= 0) return refuse(res, 422, 'valor_invalido', 'o valor pago deve ser um número positivo de centavos')
    const dia = typeof body.data === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(body.data) ? body.data : new Date().toISOString().slice(0, 10)
    b.situacao = 'liquidada'
    b.pagoCentavos = pago
    b.pagoEm = dia
    const tarifa = 350
    mover(b, { codigo: '06', pagoCentavos: BigInt(pago), liquidoCentavos: BigInt(pago - tarifa), tarifaCentavos: BigInt(tarifa),
      jurosMultaCentavos: BigInt(Math.max(0, pago - b.valorCentavos)), dataOcorrencia: dia, dataCredito: dia })
    return send(res, 200, { nosso_numero: nn, situacao: b.situacao, pago_centavos: pago, pago_em: dia })
  }

  function mover(b: Boleto, m: Partial<MovimentoSandbox> & { codigo: string }) {
    const key = `${b.banco}/${b.agencia}-${b.conta}`
    movimentos.set(key, [...(movimentos.get(key) ?? []), {
      sequencia: b.nossoNumero, seuNumero: b.seuNumero, vencimento: b.vencimento, valorCentavos: BigInt(b.valorCentavos), ...m,
    }])
  }

  let nsa = 0
  function retorno(res: ServerResponse, banco: Banco, agencia: string, conta: string) {
    const key = `${banco}/${agencia}-${conta}`
    const list = movimentos.get(key) ?? []
    const any = [...boletos.values()].find((b) => `${b.banco}/${b.agencia}-${b.conta}` === key)
    const file = retornoSandbox240({ banco, agencia, conta, contaDigito: any?.contaDigito ?? '0', ...(any?.convenio ? { convenio: any.convenio } : {}),
      inscricao: '0', empresa: 'SANDBOX' }, ++nsa, new Date().toISOString().slice(0, 10), list)
    // Taken off the account's pending movements only once the file is written whole to the socket.
    res.once('finish', () => { movimentos.set(key, (movimentos.get(key) ?? []).slice(list.length)) })
    return send(res, 200, file, 'text/plain')
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) refuse(res, 500, 'erro', 'erro do banco sandbox') })
  })
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, o.host ?? '127.0.0.1', resolve))
  const addr = server.address() as AddressInfo
  const base = `http://${addr.address}:${addr.port}`
  return {
    url: `${base}/sandbox-bank/v1`,
    falhar: (n) => { falhas += n },
    lentidao: (ms) => { extra = ms },
    boletos: () => boletos.size,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

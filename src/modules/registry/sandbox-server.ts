// SANDBOX REGISTRADORA — not a registradora (issue 34: "a clearly labelled sandbox registradora … answers with
// realistic delays, refusals and callbacks"). An HTTP server holding its duplicatas in memory, for the `sandbox`
// environment and the tests: the API the HTTP adapter speaks (http-adapter.ts). Every request is taken under a protocol
// and done after a delay, then the service is called back (when a callback URL is set) and may read the result. Every
// answer says `"sandbox": true`.
//
// Its duplicatas are issued on first sight (any number, with the value asked), except where the number says otherwise,
// so a demonstration and a test can meet each refusal: `INEXISTENTE` is unknown to it, `ONERADA` carries a lien,
// `CEDIDA` is assigned to another buyer already, `DIVERGE` is registered for one real more. An assignment registered
// for one buyer makes the duplicata assigned for every other: two customers buying the same duplicata meet here.
import { randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readJsonObject } from '../../platform/lib/read-json-object.ts'

export interface SandboxRegistradoraOptions {
  token: string
  /** Each request is done between these many milliseconds after it was taken (a registry is not instant). */
  atrasoMs?: [number, number]
  /** Where to POST `{"protocolo"}` once a request is done. */
  callbackUrl?: string
  host?: string
  port?: number
}

export interface SandboxRegistradora {
  url: string
  /** The next `n` requests answer 503, as a registradora having a bad minute. */
  falhar(n: number): void
  /** How many assignments it registered for the duplicata of this issuer and number. */
  cessoes(sacador: string, numero: string): number
  /** Requests taken (each id once). */
  pedidos(): number
  close(): Promise<void>
}

/** A third party the `CEDIDA` duplicatas are assigned to (a CNPJ of the Receita's example range, not a company). */
export const OUTRO_CESSIONARIO = '11444777000161'

type Stored = { titular: string, cessionario: string | null, onus: { tipo: string, credor: string }[], valorCentavos: bigint, situacao: string,
  cessoes: number }
type Pedido = { protocolo: string, situacao: 'processando' | 'concluido' | 'recusado', tipo: string, resultado?: object, codigo?: string, motivo?: string }

const MAX_BODY = 64 * 1024
const TIPOS = new Set(['consulta', 'cessao', 'pagamento', 'baixa'])

export async function startSandboxRegistradora(o: SandboxRegistradoraOptions): Promise<SandboxRegistradora> {
  const duplicatas = new Map<string, Stored>()
  const porId = new Map<string, Pedido>()
  const porProtocolo = new Map<string, Pedido>()
  const timers = new Set<NodeJS.Timeout>()
  let falhas = 0
  let closed = false
  const token = Buffer.from(`Bearer ${o.token}`)

  const send = (res: ServerResponse, status: number, body: object) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-sandbox-registradora': 'true' })
      .end(JSON.stringify({ sandbox: true, ...body }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
  const answer = (p: Pedido) => ({ protocolo: p.protocolo, situacao: p.situacao, tipo: p.tipo, ...(p.resultado ? { resultado: p.resultado } : {}),
    ...(p.codigo ? { codigo: p.codigo, motivo: p.motivo } : {}) })

  /** The duplicata as registered, issued on first sight as asked (the number's markers aside). */
  const duplicata = (sacador: string, numero: string, valor: bigint): Stored | undefined => {
    if (numero.includes('INEXISTENTE')) return undefined
    const key = `${sacador}:${numero}`
    let d = duplicatas.get(key)
    if (!d) {
      d = { titular: sacador, cessionario: numero.includes('CEDIDA') ? OUTRO_CESSIONARIO : null,
        valorCentavos: numero.includes('DIVERGE') ? valor + 100n : valor,
        onus: numero.includes('ONERADA') ? [{ tipo: 'penhor', credor: 'Banco Sandbox S.A.' }] : [], situacao: 'ativa', cessoes: 0 }
      duplicatas.set(key, d)
    }
    return d
  }

  /** The request done: what the registry now says, or why it refused. */
  function process(p: Pedido, b: { tipo: string, duplicata: Record<string, string>, cessionario: Record<string, string> }) {
    const d = duplicata(b.duplicata.sacador!, b.duplicata.numero!, BigInt(b.duplicata.valor_centavos!))
    const refuse = (codigo: string, motivo: string) => Object.assign(p, { situacao: 'recusado', codigo, motivo })
    if (!d) return refuse('duplicata_desconhecida', 'nenhuma duplicata escritural com este número para este sacador')
    const buyer = b.cessionario.documento!
    const view = () => ({ titular: d.titular, cessionario: d.cessionario, onus: d.onus, valor_centavos: d.valorCentavos.toString(), situacao: d.situacao })
    if (b.tipo === 'consulta') return Object.assign(p, { situacao: 'concluido', resultado: view() })
    if (b.tipo === 'cessao') {
      if (d.cessionario && d.cessionario !== buyer) return refuse('ja_cedida', 'a duplicata já está cedida a outro cessionário')
      if (d.onus.length) return refuse('duplicata_onerada', 'a duplicata tem ônus registrado')
      if (d.situacao !== 'ativa') return refuse('duplicata_encerrada', `a duplicata está ${d.situacao}`)
      if (d.cessionario !== buyer) {
        d.cessionario = buyer
        d.cessoes++
      }
      return Object.assign(p, { situacao: 'concluido', resultado: view() })
    }
    if (d.cessionario !== buyer) return refuse('nao_cessionario', 'quem pede não é o cessionário registrado')
    d.situacao = b.tipo === 'pagamento' ? 'paga' : 'baixada'
    return Object.assign(p, { situacao: 'concluido', resultado: view() })
  }

  const callBack = (p: Pedido) => {
    if (!o.callbackUrl || closed) return
    fetch(o.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ protocolo: p.protocolo }),
      signal: AbortSignal.timeout(5000) }).catch(() => {}) // a service that cannot be reached polls instead
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonObject(req, MAX_BODY)
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const auth = Buffer.from(req.headers.authorization ?? '')
    if (auth.length !== token.length || !timingSafeEqual(auth, token)) return send(res, 401, { codigo: 'nao_autorizado', motivo: 'token inválido' })
    if (falhas > 0) {
      falhas--
      return send(res, 503, { codigo: 'indisponivel', motivo: 'registradora sandbox indisponível (falha pedida)' })
    }
    const m = /^\/sandbox-registradora\/v1\/pedidos(?:\/([^/]+))?$/.exec(url.pathname)
    if (m && !m[1] && req.method === 'POST') {
      const b = body as { id?: string, tipo?: string, duplicata?: Record<string, string>, cessionario?: Record<string, string> } | undefined
      const ok = b && typeof b.id === 'string' && TIPOS.has(b.tipo ?? '') && typeof b.duplicata?.sacador === 'string'
        && typeof b.duplicata?.numero === 'string' && /^[0-9]{1,17}$/.test(b.duplicata?.valor_centavos ?? '') && typeof b.cessionario?.documento === 'string'
      if (!ok) return send(res, 400, { codigo: 'pedido_invalido', motivo: 'id, tipo, duplicata (sacador, numero, valor_centavos) e cessionario' })
      // The same id again: the first answer (a retry after a lost answer registers nothing twice).
      const seen = porId.get(b.id!)
      if (seen) return send(res, 202, answer(seen))
      const p: Pedido = { protocolo: `SBX-${randomUUID()}`, situacao: 'processando', tipo: b.tipo! }
      porId.set(b.id!, p)
      porProtocolo.set(p.protocolo, p)
      const [lo, hi] = o.atrasoMs ?? [0, 0]
      const timer = setTimeout(() => {
        timers.delete(timer)
        process(p, b as Parameters<typeof process>[1])
        callBack(p)
      }, lo + Math.floor(Math.random() * (hi - lo + 1)))
      timers.add(timer)
      return send(res, 202, answer(p))
    }
    if (m && m[1] && req.method === 'GET') {
      const p = porProtocolo.get(decodeURIComponent(m[1]))
      return p ? send(res, 200, answer(p)) : send(res, 404, { codigo: 'protocolo_desconhecido', motivo: 'nenhum pedido com este protocolo' })
    }
    return send(res, 404, { codigo: 'rota_desconhecida', motivo: 'rota desconhecida da registradora sandbox' })
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) send(res, 500, { codigo: 'erro', motivo: 'erro da registradora sandbox' }) })
  })
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, o.host ?? '127.0.0.1', resolve))
  const addr = server.address() as AddressInfo
  return {
    url: `http://${addr.address}:${addr.port}/sandbox-registradora/v1`,
    falhar: (n) => { falhas += n },
    cessoes: (sacador, numero) => duplicatas.get(`${sacador}:${numero}`)?.cessoes ?? 0,
    pedidos: () => porId.size,
    close: () => new Promise<void>((resolve) => {
      closed = true
      for (const t of timers) clearTimeout(t)
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

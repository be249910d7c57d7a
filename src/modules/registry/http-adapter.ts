// The registradora adapter over HTTP (adapter.ts), spoken to the sandbox registradora's API (sandbox-server.ts), whose
// routes it names (platform/http/json-client.ts: bounded in time and size; a 4xx a refusal, final; anything else the
// registradora being unavailable, asked again later). A real registradora's client implements RegistradoraAdapter itself.
import { jsonClient, type JsonAnswer } from '../../platform/http/json-client.ts'
import type { Consulta, Falha, PedidoRegistro, RegistradoraAdapter, Resposta } from './adapter.ts'

export interface RegistradoraHttpOptions {
  /** The API's base URL ("http://127.0.0.1:4020/sandbox-registradora/v1"). */
  baseUrl: string
  token: string
  timeoutMs: number
  fetch?: typeof fetch
}

type Answer = { protocolo?: unknown, situacao?: unknown, codigo?: unknown, motivo?: unknown,
  resultado?: { titular?: unknown, cessionario?: unknown, onus?: unknown, valor_centavos?: unknown, situacao?: unknown } }

/** The registradora's answer as the adapter's: taken, done (with what a query found), or refused. */
function read(json: unknown): Resposta {
  const j = (json ?? {}) as Answer
  if (typeof j.protocolo !== 'string' || !/^[!-~]{1,100}$/.test(j.protocolo)) {
    return { ok: false, tipo: 'indisponivel', motivo: 'resposta da registradora sem protocolo' }
  }
  if (j.situacao === 'processando') return { ok: true, situacao: 'processando', protocolo: j.protocolo, resposta: json }
  if (j.situacao === 'recusado') {
    return { ok: false, tipo: 'recusada', codigo: typeof j.codigo === 'string' ? j.codigo.slice(0, 100) : 'recusado',
      motivo: typeof j.motivo === 'string' ? j.motivo.slice(0, 500) : 'recusado', resposta: json }
  }
  if (j.situacao !== 'concluido') return { ok: false, tipo: 'indisponivel', motivo: 'resposta da registradora sem a situação do pedido' }
  const r = j.resultado
  let consulta: Consulta | undefined
  if (r) {
    if (typeof r.titular !== 'string' || (r.cessionario !== null && typeof r.cessionario !== 'string') || !Array.isArray(r.onus)
      || typeof r.valor_centavos !== 'string' || !/^[0-9]{1,17}$/.test(r.valor_centavos) || typeof r.situacao !== 'string') {
      return { ok: false, tipo: 'indisponivel', motivo: 'resposta da registradora com um resultado fora do formato' }
    }
    consulta = { titular: r.titular, cessionario: r.cessionario as string | null, valorCentavos: BigInt(r.valor_centavos), situacao: r.situacao,
      onus: (r.onus as { tipo?: unknown, credor?: unknown }[]).map((x) => ({ tipo: String(x?.tipo ?? ''), credor: String(x?.credor ?? '') })) }
  }
  return { ok: true, situacao: 'concluido', protocolo: j.protocolo, ...(consulta ? { consulta } : {}), resposta: json }
}

/**
 * A 4xx that is no answer about the request: the service's credential refused (a wrong or rotated token), a body that
 * is not the registradora's own refusal (a proxy's page, a wrong path), or, reading a request back, its protocol
 * unknown (a registradora that lost it, a sandbox restarted: `reenviar`, the request is sent again under its id).
 * Taken as final, it would refuse a duplicata for the service's own trouble: it is the registradora unavailable.
 */
function unavailableUnless(r: JsonAnswer, readingBack: boolean): JsonAnswer | Falha {
  if (r.ok || r.tipo !== 'recusada') return r
  const own = typeof (r.resposta as { codigo?: unknown } | null)?.codigo === 'string'
  if (readingBack && r.status === 404 && own) return { ok: false, tipo: 'indisponivel', motivo: `${r.motivo} (404)`, reenviar: true }
  if (r.status === 401 || r.status === 403 || readingBack || !own) return { ok: false, tipo: 'indisponivel', motivo: `${r.motivo} (${r.status ?? r.codigo})` }
  return r
}

export function httpRegistradoraAdapter(o: RegistradoraHttpOptions): RegistradoraAdapter {
  const send = jsonClient({ ...o, who: 'a registradora' })
  const call = async (method: string, path: string, body?: unknown): Promise<JsonAnswer | Falha> => unavailableUnless(await send(method, path, body),
    method === 'GET')
  return {
    async enviar(p: PedidoRegistro): Promise<Resposta> {
      const d = p.duplicata
      const r = await call('POST', '/pedidos', {
        id: p.id, tipo: p.tipo, cessionario: p.cessionario,
        duplicata: { numero: d.numero, chave_nfe: d.chaveNfe, emissao: d.emissao, vencimento: d.vencimento, valor_centavos: d.valorCentavos.toString(),
          sacador: d.sacador, sacado: d.sacado },
      })
      return r.ok ? read(r.json) : r as Falha
    },
    async situacao(protocolo: string): Promise<Resposta> {
      const r = await call('GET', `/pedidos/${encodeURIComponent(protocolo)}`)
      return r.ok ? read(r.json) : r as Falha
    },
  }
}

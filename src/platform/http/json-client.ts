// A JSON client for an outside API the service asks on its own (a bank's collection API, a registradora): each
// exchange bounded by a timeout (the answer's body too: a server that stalls mid-body is as unavailable as one that
// never answers) and by the size of the answer read; redirects never followed. A 2xx is the answer; a 4xx (but 408 and
// 429) a refusal, final, with the server's `codigo` and `motivo`; anything else (5xx, a timeout, a refused connection)
// the server being unavailable, to be asked again later.

export type JsonClientOptions = {
  /** The API's base URL ("http://127.0.0.1:4010/sandbox-bank/v1"). */
  baseUrl: string
  token: string
  timeoutMs: number
  /** Who answers, in the refusals' words: "o banco", "a registradora". */
  who: string
  fetch?: typeof fetch
}

export type Unavailable = { ok: false, tipo: 'indisponivel', motivo: string }
export type Refused = { ok: false, tipo: 'recusada', status?: number, codigo: string, motivo: string, resposta: unknown }
export type JsonAnswer = { ok: true, status: number, json: unknown } | Unavailable | Refused

const MAX_ANSWER = 64 * 1024

export function jsonClient(o: JsonClientOptions): (method: string, path: string, body?: unknown) => Promise<JsonAnswer> {
  const doFetch = o.fetch ?? fetch
  return async (method, path, body) => {
    let res: Response
    let text: string
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
      const j = (json ?? {}) as { codigo?: unknown, motivo?: unknown }
      const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined)
      return { ok: false, tipo: 'recusada', status: res.status, codigo: text(j.codigo, 100) ?? String(res.status),
        motivo: text(j.motivo, 500) ?? `${o.who} respondeu ${res.status}`, resposta: json }
    }
    return { ok: false, tipo: 'indisponivel', motivo: `${o.who} respondeu ${res.status}` }
  }
}

function parseJson(text: string): unknown {
  try { return text ? JSON.parse(text) : null } catch { return { corpo: text.slice(0, 200) } }
}

/** The answer's text, at most MAX_ANSWER bytes of it (a server that answers endlessly is cut). */
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

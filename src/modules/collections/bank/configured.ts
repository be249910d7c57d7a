// The bank the service speaks to, as configured (settings.ts): the API at BANCO_API_URL; without one, outside
// production, the labelled sandbox bank started in this process on first use (so a development copy registers and
// instructs end to end, and a process that never asks the bank, the CLI listing jobs, starts nothing); in production
// without one, no adapter at all, and what waits for the bank says so. One connection per loaded Config: the jobs are
// made before the module's setup (and by the CLI without it), and both must share the one sandbox the app stops.
import { randomBytes } from 'node:crypto'
import type { Config } from '../../../platform/config.ts'
import type { Banco } from '../boleto/bancos.ts'
import { startSandboxBank, type SandboxBank } from '../sandbox/bank-server.ts'
import type { BankAdapter, Falha } from './adapter.ts'
import { httpBankAdapter } from './http-adapter.ts'

export interface BankConnection {
  adapterFor(banco: Banco): BankAdapter | undefined
  /** Where it leads: `api`, `sandbox` (started or not yet) or `nenhum`. */
  readonly modo: 'api' | 'sandbox' | 'nenhum'
  /** Stops the in-process sandbox bank, if it was started. */
  close(): Promise<void>
}

type Log = { info(facts: object, message: string): void }

const connections = new WeakMap<Config, BankConnection>()

export function bankConnection(config: Config, log: Log): BankConnection {
  let c = connections.get(config)
  if (!c) connections.set(config, c = connect(config, log))
  return c
}

function connect(config: Config, log: Log): BankConnection {
  const { apiUrl, apiToken, timeoutMs } = config.banco
  if (apiUrl) {
    const adapter = httpBankAdapter({ baseUrl: apiUrl, token: apiToken, timeoutMs })
    return { modo: 'api', adapterFor: () => adapter, close: async () => {} }
  }
  if (config.ambiente === 'producao') return { modo: 'nenhum', adapterFor: () => undefined, close: async () => {} }

  const token = randomBytes(24).toString('base64url')
  let started: Promise<SandboxBank> | undefined
  let closed = false
  const bank = () => started ??= startSandboxBank({ token, atrasoMs: [20, 200] }).then((b) => {
    log.info({ url: b.url }, 'SANDBOX BANK started in-process: no real bank is asked (set BANCO_API_URL for one)')
    return b
  })
  // A call after close finds the bank gone, as an outage (and starts no second sandbox).
  const over = async <T>(call: (a: BankAdapter) => Promise<T>): Promise<T | Falha> => {
    if (closed) return { ok: false, tipo: 'indisponivel', motivo: 'banco sandbox parado com o serviço' }
    return call(httpBankAdapter({ baseUrl: (await bank()).url, token, timeoutMs }))
  }
  const adapter: BankAdapter = {
    registrar: (p) => over((a) => a.registrar(p)),
    instruir: (p) => over((a) => a.instruir(p)),
    consultar: (p) => over((a) => a.consultar(p)),
  }
  return {
    modo: 'sandbox',
    adapterFor: () => adapter,
    close: async () => {
      closed = true
      if (started) await (await started).close()
    },
  }
}

// The registradora the service speaks to, as configured (settings.ts): the API at REGISTRADORA_URL; without one,
// outside production, the labelled sandbox registradora started in this process on first use (calling back the service
// at its PUBLIC_URL); in production without one, none, and the requests wait, saying so. One connection per loaded
// Config: the jobs are made before the module's setup (and by the CLI without it), and both share the sandbox the app stops.
import { randomBytes } from 'node:crypto'
import type { Config } from '../../platform/config.ts'
import type { Falha, RegistradoraAdapter } from './adapter.ts'
import { httpRegistradoraAdapter } from './http-adapter.ts'
import { startSandboxRegistradora, type SandboxRegistradora } from './sandbox-server.ts'

export interface RegistradoraConnection {
  adapter: RegistradoraAdapter | undefined
  readonly modo: 'api' | 'sandbox' | 'nenhum'
  close(): Promise<void>
}

type Log = { info(facts: object, message: string): void }

/** Where the registradora calls the service back. */
export const CALLBACK_PATH = '/api/registradora/callback'

const connections = new WeakMap<Config, RegistradoraConnection>()

export function registradoraConnection(config: Config, log: Log): RegistradoraConnection {
  let c = connections.get(config)
  if (!c) connections.set(config, c = connect(config, log))
  return c
}

function connect(config: Config, log: Log): RegistradoraConnection {
  const { apiUrl, apiToken, timeoutMs } = config.registradora
  if (apiUrl) return { modo: 'api', adapter: httpRegistradoraAdapter({ baseUrl: apiUrl, token: apiToken, timeoutMs }), close: async () => {} }
  if (config.ambiente === 'producao') return { modo: 'nenhum', adapter: undefined, close: async () => {} }

  const token = randomBytes(24).toString('base64url')
  let started: Promise<SandboxRegistradora> | undefined
  let closed = false
  const sandbox = () => started ??= startSandboxRegistradora({ token, atrasoMs: [50, 500], callbackUrl: `${config.publicUrl}${CALLBACK_PATH}` })
    .then((s) => {
      log.info({ url: s.url }, 'SANDBOX REGISTRADORA started in-process: no real registry is asked (set REGISTRADORA_URL for one)')
      return s
    })
  const over = async <T>(call: (a: RegistradoraAdapter) => Promise<T>): Promise<T | Falha> => {
    if (closed) return { ok: false, tipo: 'indisponivel', motivo: 'registradora sandbox parada com o serviço' }
    return call(httpRegistradoraAdapter({ baseUrl: (await sandbox()).url, token, timeoutMs }))
  }
  return {
    modo: 'sandbox',
    adapter: { enviar: (p) => over((a) => a.enviar(p)), situacao: (p) => over((a) => a.situacao(p)) },
    close: async () => {
      closed = true
      if (started) await (await started).close()
    },
  }
}

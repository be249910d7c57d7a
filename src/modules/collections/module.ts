// The collections module (produto.md §3, issue 33): the standards first (boleto/: FEBRABAN's barcode and linha
// digitável, each bank's campo livre and nosso número, Interleaved 2 of 5; pix/: the BR Code), the customer's
// collection accounts (accounts/: /api/contas-cobranca, confirmed by a second person), and the charges made under
// them (charges/: /api/cobrancas, each an acquired título's boleto, printed as HTML and PDF), the instructions
// asked of them after registration (instructions/), the CNAB files that carry both to a bank (remessas/), what the
// bank returns (retornos/: /api/cnab/retornos, each file applied once, each line once, and the retornos job), the
// buy-backs (recompras/: /api/recompras), and the bank that registers and instructs them by API (bank/: the one
// configured, or the labelled sandbox), through the jobs below.
import type { Banco } from './boleto/bancos.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { ACCOUNT_ROUTES } from './accounts/definitions.ts'
import { accountRoutes } from './accounts/routes.ts'
import { CHARGE_ROUTES } from './charges/definitions.ts'
import { chargeEmailRoute } from './charges/email-route.ts'
import { chargeRoutes } from './charges/routes.ts'
import { registrationJob } from './charges/registration.ts'
import { bankConnection } from './bank/configured.ts'
import { INSTRUCTION_ROUTES } from './instructions/definitions.ts'
import { instructionRoutes } from './instructions/routes.ts'
import { sendingJob } from './instructions/sending.ts'
import { REMESSA_ROUTES } from './remessas/definitions.ts'
import { collectionTools } from './mcp-tools.ts'
import { remessaRoutes } from './remessas/routes.ts'
import { RECOMPRA_ROUTES } from './recompras/definitions.ts'
import { recompraRoutes } from './recompras/routes.ts'
import { retornosJob } from './retornos/job.ts'
import { RETORNO_ROUTES } from './retornos/definitions.ts'
import { retornoRoutes } from './retornos/routes.ts'
import { PAINEL_COBRANCA_ROUTE, painelCobrancaRoute } from './painel.ts'
import { sandboxRetornoCommand, SANDBOX_RETORNO_HELP } from './sandbox/cli.ts'

export const collectionsModule = defineModule({
  name: 'collections',
  commands: [{ name: 'cobranca', help: SANDBOX_RETORNO_HELP, run: sandboxRetornoCommand }],
  setup({ config, db, clock, idempotency, log }) {
    const deps = { db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura }
    const accounts = accountRoutes(deps)
    const charges = chargeRoutes({ ...deps, production: config.ambiente === 'producao' })
    const chargeEmail = chargeEmailRoute({ ...deps, production: config.ambiente === 'producao' })
    const instructions = instructionRoutes(deps)
    const remessas = remessaRoutes(deps)
    const recompras = recompraRoutes(deps)
    const painel = painelCobrancaRoute(deps)
    const retornos = retornoRoutes({ db, clock, budget: config.rateLimits.leitura, uploads: config.rateLimits.arquivos, log, onLineError: lineError(log) })
    return {
      // Started on first use by the jobs (bank/configured.ts); stopped with the app.
      background: [{ start: () => {}, stop: () => bankConnection(config, log).close() }],
      routes: async (app) => {
        await painel(app)
        await accounts(app)
        await charges(app)
        await chargeEmail(app)
        await instructions(app)
        await remessas(app)
        await retornos(app)
        await recompras(app)
      },
      contributes: { mcp: { tools: collectionTools(db) } },
      customerApiPaths: () => pathItems([...Object.values(ACCOUNT_ROUTES), ...Object.values(CHARGE_ROUTES), ...Object.values(RETORNO_ROUTES),
        ...Object.values(RECOMPRA_ROUTES), ...Object.values(INSTRUCTION_ROUTES), ...Object.values(REMESSA_ROUTES), PAINEL_COBRANCA_ROUTE]),
    }
  },
  jobs: ({ db, config, log }) => {
    const bank = bankConnection(config, log)
    const talk = { db, adapterFor: (banco: Banco) => bank.adapterFor(banco), retry: config.banco.retry }
    return [registrationJob(talk), sendingJob(talk), retornosJob({ db, onLineError: lineError(log) })]
  },
})

/** A retorno's line that failed alone: kept as ignored (erro_interno), and the error logged for the operators. */
const lineError = (log: { error?(facts: object, message: string): void, info(facts: object, message: string): void }) =>
  (err: unknown, where: { retornoId: string, linha: number }) =>
    // The error's type, code and frames alone: a driver's message carries the statement's values (log-safety.ts).
    (log.error ?? log.info).call(log, { ...errorFacts(err), retorno: where.retornoId, linha: where.linha },
      'a retorno line failed alone: kept as ignored (erro_interno)')

// Tenancy, scopes and roles from outside, generated from the route definitions themselves (every product route of
// releases I's modules): each route with another customer's ids is 404 nao_encontrado, exactly as a missing id;
// each route without its scope is 403 escopo_insuficiente; each role reaches each route as the roles' table says
// (ACESSO, the README's table: test/modules/credentials/roles-table.test.ts) and is 403 papel_insuficiente
// otherwise; and the person who asked for a payment cannot approve it.
import { freshCnpj } from '../../helpers/cnpj.ts'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { changes, permits, PAPEIS, type Papel } from '../../../src/modules/credentials/index.ts'
import { LEDGER_ROUTES } from '../../../src/modules/ledger/definitions.ts'
import { OPERATION_ROUTES } from '../../../src/modules/operations/definitions.ts'
import { SIMULATION_ROUTE } from '../../../src/modules/operations/simulation.ts'
import { TERM_ROUTES } from '../../../src/modules/operations/termo-routes.ts'
import { partyRoutes } from '../../../src/modules/origination/registers/definitions.ts'
import { HOLIDAY_ROUTES } from '../../../src/modules/calendar/own/routes.ts'
import { TERMS_ROUTES } from '../../../src/modules/pricing/terms/definitions.ts'
import { IOF_ROUTE } from '../../../src/modules/pricing/iof/routes.ts'
import { ACCOUNT_ROUTES } from '../../../src/modules/collections/accounts/definitions.ts'
import { CHARGE_ROUTES } from '../../../src/modules/collections/charges/definitions.ts'
import { RETORNO_ROUTES } from '../../../src/modules/collections/retornos/definitions.ts'
import { INSTRUCTION_ROUTES } from '../../../src/modules/collections/instructions/definitions.ts'
import { REMESSA_ROUTES } from '../../../src/modules/collections/remessas/definitions.ts'
import { PAINEL_COBRANCA_ROUTE } from '../../../src/modules/collections/painel.ts'
import { retornoSandbox240 } from '../../../src/modules/collections/sandbox/retorno240.ts'
import type { RouteDefinition } from '../../../src/platform/http/route-document.ts'
import { SCOPES, type Scope } from '../../../src/modules/credentials/scopes.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { WEBHOOK_ROUTES } from '../../../src/modules/webhooks/definitions.ts'
import { CONFIRMATION_ROUTES } from '../../../src/modules/operations/confirmation/definitions.ts'
import { REGISTRY_ROUTES } from '../../../src/modules/registry/definitions.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, exampleTitles, key, person, settableClock } from './helpers.ts'

const ROUTES: RouteDefinition[] = [
  ...Object.values(OPERATION_ROUTES), SIMULATION_ROUTE, ...Object.values(LEDGER_ROUTES), ...Object.values(partyRoutes('cedente')),
  ...Object.values(partyRoutes('sacado')), ...Object.values(TERMS_ROUTES), ...Object.values(HOLIDAY_ROUTES), IOF_ROUTE,
  ...Object.values(TERM_ROUTES), ...Object.values(ACCOUNT_ROUTES), ...Object.values(CHARGE_ROUTES), ...Object.values(RETORNO_ROUTES),
  ...Object.values(INSTRUCTION_ROUTES), ...Object.values(REMESSA_ROUTES), PAINEL_COBRANCA_ROUTE, ...Object.values(WEBHOOK_ROUTES),
  ...Object.values(CONFIRMATION_ROUTES), ...Object.values(REGISTRY_ROUTES),
]

/** A collection account Itaú takes (its account check digit is módulo 10 of agência and conta). */
const CONTA_COBRANCA = { nome: 'Cobrança da matriz', banco: '341', agencia: '1234', conta: '56789', conta_digito: '7', carteira: '109' }

/** The matrix's account's retorno: the bank confirms the charge's entry. */
const retornoOf = (sequencia: string) => Buffer.from(retornoSandbox240({ banco: '341', agencia: '1234', conta: '56789', contaDigito: '7',
  inscricao: '11444777000161', empresa: 'MATRIZ' }, 1, '2026-10-06', [{ codigo: '02', sequencia, seuNumero: 'T1', vencimento: '2026-11-04',
  valorCentavos: 1_000_000n, dataOcorrencia: '2026-10-06' }]), 'latin1')

/** A body each route's schema accepts, so that what answers is the route, not its validation. */
function bodyFor(r: RouteDefinition, ids: Ids): object | undefined {
  const u = r.url
  if (r.method === 'GET' || r.method === 'DELETE') return undefined
  if (u === '/api/operacoes') return { cedente_id: ids.cedente, produto_id: ids.produto }
  if (u.endsWith('/titulos')) return { titulos: exampleTitles([ids.sacado]).slice(0, 1) }
  if (u.endsWith('/aceite')) return { cotacao_versao: 1 }
  if (u.endsWith('/formalizacao')) return { termo_sha256: 'e'.repeat(64), assinado_em: '2026-10-05T12:00:00Z', signatarios: [{ nome: 'Sócio',
    documento: '11144477735' }] }
  if (u.endsWith('/termo')) return Buffer.from('%PDF-1.4 termo da matriz')
  if (u.endsWith('/desembolso') || u.endsWith('/cotacao') || u.endsWith('/aprovacao')) return {}
  if (u.endsWith('/cancelamento') || u.endsWith('/falha') || u.endsWith('/recusa')) return { motivo: 'teste da matriz' }
  if (u.endsWith('/pagamento')) return { id_transacao: 'E1', pago_em: '2026-10-05T14:00:00Z' }
  if (u === '/api/simulacoes') return { perfil_iof: 'pj', produto_id: ids.produto, titulos: [{ tipo: 'cheque', vencimento: '2026-12-04',
    valor_face_centavos: 100 }] }
  if (u === '/api/cedentes' || u === '/api/sacados') return { documento: '39053344705', razao_social: 'Outra Pessoa',
    ...(u === '/api/cedentes' ? { perfil_iof: 'pf' } : {}) }
  if (u.startsWith('/api/cedentes/') || u.startsWith('/api/sacados/')) return { razao_social: 'Nome Novo' }
  if (u === '/api/produtos') return EXAMPLE_PRODUCT
  if (u.endsWith('/versoes')) return { ...EXAMPLE_PRODUCT, nome: undefined }
  if (u === '/api/contas-cobranca') return CONTA_COBRANCA
  if (u === '/api/cobrancas') return { titulo_id: ids.titulo, conta_cobranca_id: ids.contaCobranca }
  if (u === '/api/titulos/:id/confirmacao') return { meio: 'telefone', resultado: 'sem_contato' }
  if (u.endsWith('/dispensa')) return { motivo: 'teste da matriz' }
  if (u.endsWith('/registro/consulta') || u.endsWith('/registro/cessao')) return undefined
  if (u.endsWith('/confirmacao')) return undefined
  if (u.startsWith('/api/contas-cobranca/')) return { nome: 'Cobrança renomeada' }
  if (u === '/api/cnab/retornos') return retornoOf('1')
  if (u.endsWith('/instrucoes')) return { instrucao: 'protestar' }
  if (u.endsWith('/email')) return {}
  if (u === '/api/cnab/remessas') return { conta_cobranca_id: ids.contaCobranca }
  if (u === '/api/webhooks') return { url: 'https://203.0.113.10/eventos', eventos: ['*'] }
  if (u === '/api/webhooks/:id') return { descricao: 'Renomeado pela matriz' }
  if (u.endsWith('/segredo') || u.endsWith('/reenvio') || u.endsWith('/teste')) return {}
  if (u === '/api/feriados') return { data: '2026-12-08', descricao: 'Feriado da matriz', uf: 'SP' }
  throw new Error(`no body for ${r.method} ${u}`)
}

type Ids = {
  operacao: string, titulo: string, desembolso: string, cedente: string, sacado: string, produto: string, feriado: string, contaCobranca: string,
  cobranca: string, retorno: string, remessa: string, webhook: string, entrega: string, confirmacao: string,
}

/** The URL with its `:params` filled from `ids` (by the resource the path names). */
function urlFor(r: RouteDefinition, ids: Ids): string {
  const byPrefix: [string, keyof Ids][] = [['/api/operacoes/', 'operacao'], ['/api/desembolsos/', 'desembolso'], ['/api/titulos/', 'titulo'],
    ['/api/cedentes/', 'cedente'], ['/api/sacados/', 'sacado'], ['/api/produtos/', 'produto'], ['/api/feriados/', 'feriado'],
    ['/api/contas-cobranca/', 'contaCobranca'], ['/api/cobrancas/', 'cobranca'], ['/api/cnab/retornos/', 'retorno'], ['/api/cnab/remessas/', 'remessa'],
    ['/api/webhooks/', 'webhook']]
  const resource = byPrefix.find(([p]) => r.url.startsWith(p))?.[1]
  // The retorno's upload names its account in the query.
  const query = r.method === 'POST' && r.url === '/api/cnab/retornos' ? `?conta_cobranca_id=${ids.contaCobranca}` : ''
  return r.url.replace(':titulo_id', ids.titulo).replace(':entrega', ids.entrega).replace(':confirmacao', ids.confirmacao)
    .replace(':id', resource ? ids[resource] : 'x') + query
}

describe('product routes: tenancy, scopes and roles, generated from the definitions', () => {
  const clock = settableClock(EXAMPLE_NOW)
  // A webhook to a closed port of this machine: its deliveries fail and wait, and are listed.
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, deps: { clock } })

  /** A customer with one of everything, the payment waiting for approval. */
  const world = async () => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const webhook = created(await office.admin.call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/eventos', eventos: ['operacao.criada'] }))
    const { produto, cedente, sacados } = await exampleRegisters(office.admin.call)
    const op = created(await office.admin.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    created(await office.admin.call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await office.admin.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await office.admin.call('POST', `/api/operacoes/${op.id}/formalizacao`, bodyFor(OPERATION_ROUTES.formalizacao, {} as Ids)), 200)
    const payment = created(await office.admin.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    const feriado = created(await office.admin.call('POST', '/api/feriados', { data: '2026-12-24', descricao: 'Véspera', uf: 'SP' }))
    const conta = created(await office.admin.call('POST', '/api/contas-cobranca', CONTA_COBRANCA))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${conta.id}/confirmacao`, undefined, key()), 200)
    const cobranca = created(await office.admin.call('POST', '/api/cobrancas', { titulo_id: op.titulos[0].id, conta_cobranca_id: conta.id }, key()))
    const retorno = created(await office.admin.call('POST', `/api/cnab/retornos?conta_cobranca_id=${conta.id}`,
      retornoOf(cobranca.nosso_numero_sequencia) as unknown as object))
    // The charge registered by that retorno takes an instruction, which the account's remessa carries.
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [office.clienteId, freshCnpj()]))
    created(await office.admin.call('POST', `/api/cobrancas/${cobranca.id}/instrucoes`, { instrucao: 'protestar' }, key()))
    const remessa = created(await office.admin.call('POST', '/api/cnab/remessas', { conta_cobranca_id: conta.id }, key()))
    const [entrega] = created(await office.admin.call('GET', `/api/webhooks/${webhook.id}/entregas`), 200).itens
    const confirmacao = created(await office.admin.call('POST', `/api/titulos/${op.titulos[0].id}/confirmacao`, { meio: 'email', resultado: 'confirmado',
      evidencia: { conteudo_base64: Buffer.from('e-mail do sacado').toString('base64'), tipo: 'message/rfc822' } }))
    const ids: Ids = {
      webhook: webhook.id, entrega: entrega.id, confirmacao: confirmacao.id,
      operacao: op.id, titulo: op.titulos[0].id, desembolso: payment.id, cedente: cedente.id, sacado: sacados[0].id, produto: produto.id, feriado: feriado.id,
      contaCobranca: conta.id, cobranca: cobranca.id, retorno: retorno.id, remessa: remessa.id,
    }
    return { ...office, ids }
  }

  it('another customer\'s ids are 404 nao_encontrado on every route that takes an id, and change nothing', async () => {
    const a = await world()
    const b = await backOffice(ctx.db, ctx.app, clock)
    const before = (await a.admin.call('GET', `/api/operacoes/${a.ids.operacao}`)).json()
    let walked = 0
    for (const r of ROUTES.filter((x) => x.url.includes(':'))) {
      const res = await b.admin.call(r.method as 'POST', urlFor(r, a.ids), bodyFor(r, a.ids), key())
      assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }], `${r.method} ${r.url}`)
      walked++
    }
    assert.ok(walked >= 20, `${walked} routes with an id`)
    assert.deepEqual((await a.admin.call('GET', `/api/operacoes/${a.ids.operacao}`)).json(), before)
  })

  it('every route without its scope is 403 escopo_insuficiente', async () => {
    const a = await world()
    for (const r of ROUTES.filter((x) => x.escopo)) {
      const token = (await issueToken(ctx.db, a.clienteId, { escopos: SCOPES.filter((s) => s !== r.escopo) })).token
      const res = await bearer(ctx.app, token, r.method as 'POST', urlFor(r, a.ids), { ...(bodyFor(r, a.ids) ? { payload: bodyFor(r, a.ids) } : {}),
        headers: key() })
      assert.equal(res.statusCode, 403, `${r.method} ${r.url} without ${r.escopo}`)
      assert.equal(res.json().detail, 'escopo_insuficiente')
    }
  })

  it('each role reaches each route as the roles\' table says, and is 403 papel_insuficiente elsewhere', async () => {
    const a = await world()
    // One after another: a role change locks the customer's administradores (the last one is kept).
    const people = {} as Record<Papel, Awaited<ReturnType<typeof person>>>
    for (const p of PAPEIS) people[p] = await person(ctx.db, a.clienteId, p, ctx.app, clock)
    let allowed = 0
    let refused = 0
    for (const r of ROUTES.filter((x) => x.escopo)) {
      for (const papel of PAPEIS) {
        // Fresh ids for a change that would consume the world (a cancellation, a removal): a random one answers 404, past the guard.
        const ids = r.method === 'GET' ? a.ids : Object.fromEntries(Object.keys(a.ids).map((k) => [k, randomUUID()])) as Ids
        const res = await people[papel].call(r.method as 'POST', urlFor(r, ids), bodyFor(r, a.ids), key())
        const expected = permits(papel, r.escopo as Scope, changes(r.method, { somenteLeitura: r.somenteLeitura ?? false }))
        if (expected) {
          allowed++
          assert.notEqual(res.statusCode, 403, `${papel}: ${r.method} ${r.url}: ${res.body}`)
        } else {
          refused++
          assert.deepEqual([res.statusCode, res.json()], [403, { detail: 'papel_insuficiente' }], `${papel}: ${r.method} ${r.url}`)
        }
      }
    }
    assert.ok(allowed > 50 && refused > 20, `${allowed} allowed, ${refused} refused`)
  })

  it('the person who asked for a payment is refused its approval (403), and another approves it', async () => {
    const a = await world()
    const own = await a.admin.call('POST', `/api/desembolsos/${a.ids.desembolso}/aprovacao`, undefined, key())
    assert.deepEqual([own.statusCode, own.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    created(await a.aprovador.call('POST', `/api/desembolsos/${a.ids.desembolso}/aprovacao`, undefined, key()), 200)
  })
})

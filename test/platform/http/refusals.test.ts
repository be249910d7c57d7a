// Each domain refusal (src/platform/http/domain-error.ts) answered on every surface by the one code it maps to (refusalOf):
// the HTTP answer a client gets, the MCP tool error an agent reads, the CLI's line and exit code. The table
// below says what each class should be; a class of src/ without a row fails the first test.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import {
  CredentialInputError, EmailInUseError, InactiveCustomerError, InvitationUnusableError, LastAdministratorError, RoleError, UnknownCustomerError,
  UnknownUserError,
} from '../../../src/modules/credentials/errors.ts'
import { InvalidScopesError } from '../../../src/modules/credentials/scopes.ts'
import { InvalidTenantError } from '../../../src/platform/tenancy/tenancy.ts'
import { cliFailure } from '../../../src/platform/cli/refusals.ts'
import { ContactNotStored } from '../../../src/modules/contact/submit.ts'
import { DomainError } from '../../../src/platform/http/domain-error.ts'
import { errorHandler } from '../../../src/platform/http/errors.ts'
import { ValidationProblem } from '../../../src/platform/http/schemas.ts'
import { RequestValidationError } from '../../../src/platform/http/validation-errors.ts'
import type { DetailCode } from '../../../src/platform/http/problem-catalogue.ts'
import { toolFailure, toResult } from '../../../src/modules/mcp/server.ts'
import { MissingIofRate } from '../../../src/modules/pricing/engine.ts'
import { AccountConfirmerError, DocumentInUseError } from '../../../src/modules/origination/registers/errors.ts'
import { ExternalIdInUseError } from '../../../src/platform/tenancy/external-id.ts'
import {
  CollectionAccountConfirmerError, CollectionAccountExistsError, CollectionAccountOfAnotherError,
} from '../../../src/modules/collections/accounts/errors.ts'
import {
  AccountInactiveError, AccountUnconfirmedError, BoletoSentRecentlyError, NossoNumeroExhaustedError, NossoNumeroInUseError,
  TitleChargedError, TitleNotAcquiredError,
} from '../../../src/modules/collections/charges/errors.ts'
import { ChargeNotRegisteredError, ExtensionPendingError, NoProtestError, WriteOffAskedError } from '../../../src/modules/collections/instructions/errors.ts'
import { AccountByApiError, CustomerWithoutCnpjError, EmptyRemessaError } from '../../../src/modules/collections/remessas/errors.ts'
import { RetornoRecusadoError } from '../../../src/modules/collections/retornos/errors.ts'
import { BuyBackStateError, BuyBackTransactionInUseError, BuyBackWithoutRecourseError } from '../../../src/modules/collections/recompras/errors.ts'
import { HolidayExistsError } from '../../../src/modules/calendar/own/store.ts'
import { TooManyWebhooksError } from '../../../src/modules/webhooks/errors.ts'
import { NotInRegistryError } from '../../../src/modules/registry/errors.ts'
import { EntryConfirmerError, LedgerTotalError, ManualEntryStateError } from '../../../src/modules/ledger/errors.ts'
import { InvalidWindowError } from '../../../src/modules/status/maintenance.ts'
import {
  BlockedRegisterError, DuplicateTitleError, EarlyAcceptanceError, ExpiredQuoteError, InvalidStateError, LimitExceededError, PaymentDayError,
  NoCustomerCnpjError, NoSacadoEmailError, RegistryBlockedError, SameApproverError, TitleWithChecksError, StaleQuoteError, TooManyTitlesError,
  TransactionInUseError, UnconfirmedAccountError, UnconfirmedTitlesError,
  UnviableQuoteError,
} from '../../../src/modules/operations/errors.ts'

type Row = { error: Error, code: DetailCode, status: number, headers?: Record<string, string>, exit: 1 | 2, fields?: Record<string, unknown> }

const BREACH = { tipo: 'cedente' as const, id: '0b9e', razao_social: 'Cedente', limite_centavos: 1, exposicao_centavos: 0, operacao_centavos: 2 }

const ROWS: Record<string, Row> = {
  CredentialInputError: { error: new CredentialInputError('the expiry must be in the future'), code: 'entrada_recusada', status: 422, exit: 2 },
  InvalidScopesError: { error: new InvalidScopesError('unknown scope "x"'), code: 'entrada_recusada', status: 422, exit: 2 },
  InvalidWindowError: { error: new InvalidWindowError('fim is already past'), code: 'entrada_recusada', status: 422, exit: 2 },
  EmailInUseError: { error: new EmailInUseError(), code: 'email_em_uso', status: 409, exit: 2 },
  InactiveCustomerError: { error: new InactiveCustomerError(), code: 'assinatura_inativa', status: 403, exit: 1 },
  InvitationUnusableError: { error: new InvitationUnusableError(), code: 'convite_inutilizavel', status: 410, exit: 1 },
  UnknownUserError: { error: new UnknownUserError(), code: 'nao_encontrado', status: 404, exit: 1 },
  UnknownCustomerError: { error: new UnknownCustomerError(), code: 'nao_encontrado', status: 404, exit: 1 },
  InvalidTenantError: { error: new InvalidTenantError(), code: 'nao_encontrado', status: 404, exit: 1 },
  ContactNotStored: { error: new ContactNotStored(), code: 'servico_indisponivel', status: 503, headers: { 'retry-after': '30' }, exit: 1 },
  MissingIofRate: { error: new MissingIofRate('simples', '2026-01-02'), code: 'iof_sem_aliquota', status: 422, exit: 1 },
  RoleError: { error: new RoleError('a person who is consulta cannot give a token the scope tokens'), code: 'papel_insuficiente', status: 403, exit: 1 },
  LastAdministratorError: { error: new LastAdministratorError(), code: 'ultimo_administrador', status: 409, exit: 1 },
  DocumentInUseError: { error: new DocumentInUseError('0b9e'), code: 'documento_em_uso', status: 409, exit: 1, fields: { id: '0b9e' } },
  ExternalIdInUseError: { error: new ExternalIdInUseError('0b9e'), code: 'id_externo_em_uso', status: 409, exit: 1, fields: { id: '0b9e' } },
  HolidayExistsError: { error: new HolidayExistsError('0b9e'), code: 'feriado_existente', status: 409, exit: 1, fields: { id: '0b9e' } },
  InvalidStateError: { error: new InvalidStateError('cotada'), code: 'estado_invalido', status: 409, exit: 1, fields: { estado: 'cotada' } },
  StaleQuoteError: { error: new StaleQuoteError(3), code: 'cotacao_desatualizada', status: 409, exit: 1, fields: { cotacao_versao: 3 } },
  ExpiredQuoteError: {
    error: new ExpiredQuoteError(new Date('2026-10-06T03:00:00Z')), code: 'cotacao_expirada', status: 409, exit: 1,
      fields: { valida_ate: '2026-10-06T03:00:00.000Z' },
  },
  EarlyAcceptanceError: {
    error: new EarlyAcceptanceError('2026-10-06', '2026-10-05'), code: 'operacao_antes_da_data', status: 409, exit: 1,
    fields: { data_operacao: '2026-10-06', hoje: '2026-10-05' },
  },
  PaymentDayError: {
    error: new PaymentDayError('2026-10-06', '2026-10-07'), code: 'pagamento_fora_da_data', status: 409, exit: 1,
    fields: { data_operacao: '2026-10-06', data_pagamento: '2026-10-07' },
  },
  TransactionInUseError: {
    error: new TransactionInUseError('0b9e'), code: 'id_transacao_em_uso', status: 409, exit: 1, fields: { desembolso_id: '0b9e' },
  },
  LimitExceededError: {
    error: new LimitExceededError([BREACH]), code: 'limite_excedido', status: 409, exit: 1, fields: { limites: [BREACH] },
  },
  UnconfirmedTitlesError: {
    error: new UnconfirmedTitlesError([{ id: '0b9e', numero: 'T3', confirmacao_estado: 'parcial' }]), code: 'titulos_nao_confirmados', status: 409,
    exit: 1, fields: { titulos: [{ id: '0b9e', numero: 'T3', confirmacao_estado: 'parcial' }] },
  },
  RegistryBlockedError: {
    error: new RegistryBlockedError([{ id: '0b9e', numero: 'T1', registro_estado: 'impedido', registro_situacao: 'onerada' }]), code: 'registro_impedido',
    status: 409, exit: 1, fields: { titulos: [{ id: '0b9e', numero: 'T1', registro_estado: 'impedido', registro_situacao: 'onerada' }] },
  },
  TitleWithChecksError: { error: new TitleWithChecksError('0b9e'), code: 'titulo_com_verificacoes', status: 409, exit: 1, fields: { titulo_id: '0b9e' } },
  NotInRegistryError: { error: new NotInRegistryError('cheque'), code: 'titulo_sem_registro', status: 409, exit: 1, fields: { tipo: 'cheque' } },
  NoCustomerCnpjError: { error: new NoCustomerCnpjError(), code: 'empresa_sem_cnpj', status: 409, exit: 1 },
  NoSacadoEmailError: { error: new NoSacadoEmailError('0b9e'), code: 'sacado_sem_email', status: 409, exit: 1, fields: { sacado_id: '0b9e' } },
  BlockedRegisterError: {
    error: new BlockedRegisterError([{ tipo: 'sacado', id: '0b9e' }]), code: 'cadastro_bloqueado', status: 409, exit: 1,
      fields: { cadastros: [{ tipo: 'sacado', id: '0b9e' }] },
  },
  DuplicateTitleError: {
    error: new DuplicateTitleError('1'.repeat(44), 'NF 12/1', '0b9e'), code: 'titulo_duplicado', status: 409, exit: 1,
    fields: { chave_nfe: '1'.repeat(44), numero: 'NF 12/1', titulo_id: '0b9e' },
  },
  SameApproverError: { error: new SameApproverError('the person who asked'), code: 'aprovacao_pelo_mesmo_usuario', status: 403, exit: 1 },
  AccountConfirmerError: { error: new AccountConfirmerError('the person who added it'), code: 'aprovacao_pelo_mesmo_usuario', status: 403, exit: 1 },
  TooManyTitlesError: {
    error: new TooManyTitlesError(5000, 4500, 1000), code: 'limite_de_titulos', status: 409, exit: 1,
    fields: { limite: 5000, titulos_na_operacao: 4500, titulos_enviados: 1000, configuracao: 'OPERACAO_MAX_TITULOS' },
  },
  LedgerTotalError: {
    error: new LedgerTotalError(5n), code: 'total_contabil_excedido', status: 409, exit: 1,
    fields: { limite_centavos: Number.MAX_SAFE_INTEGER, lancamento_centavos: 5 },
  },
  UnconfirmedAccountError: {
    error: new UnconfirmedAccountError('0b9e'), code: 'conta_bancaria_nao_confirmada', status: 409, exit: 1, fields: { conta_id: '0b9e' },
  },
  UnviableQuoteError: {
    error: new UnviableQuoteError('preco_nao_positivo', 2), code: 'cotacao_inviavel', status: 422, exit: 1, fields: { motivo: 'preco_nao_positivo', indice: 2 },
  },
  CollectionAccountExistsError: {
    error: new CollectionAccountExistsError('0b9e'), code: 'conta_cobranca_existente', status: 409, exit: 1, fields: { id: '0b9e' },
  },
  CollectionAccountOfAnotherError: {
    error: new CollectionAccountOfAnotherError(), code: 'conta_cobranca_de_outro_cliente', status: 409, exit: 1,
  },
  CollectionAccountConfirmerError: {
    error: new CollectionAccountConfirmerError('the person who added it'), code: 'aprovacao_pelo_mesmo_usuario', status: 403, exit: 1,
  },
  TitleNotAcquiredError: {
    error: new TitleNotAcquiredError('ofertado'), code: 'titulo_nao_adquirido', status: 409, exit: 1, fields: { estado: 'ofertado' },
  },
  TitleChargedError: { error: new TitleChargedError('0b9e'), code: 'titulo_ja_cobrado', status: 409, exit: 1, fields: { id: '0b9e' } },
  AccountUnconfirmedError: { error: new AccountUnconfirmedError(), code: 'conta_cobranca_nao_confirmada', status: 409, exit: 1 },
  AccountInactiveError: { error: new AccountInactiveError(), code: 'conta_cobranca_inativa', status: 409, exit: 1 },
  NossoNumeroInUseError: { error: new NossoNumeroInUseError('0b9e'), code: 'nosso_numero_em_uso', status: 409, exit: 1, fields: { id: '0b9e' } },
  ChargeNotRegisteredError: {
    error: new ChargeNotRegisteredError('a_registrar'), code: 'cobranca_nao_registrada', status: 409, exit: 1, fields: { estado: 'a_registrar' },
  },
  WriteOffAskedError: { error: new WriteOffAskedError('0b9e'), code: 'baixa_ja_pedida', status: 409, exit: 1, fields: { id: '0b9e' } },
  TooManyWebhooksError: { error: new TooManyWebhooksError(20), code: 'webhooks_no_limite', status: 409, exit: 1, fields: { limite: 20 } },
  BoletoSentRecentlyError: {
    error: new BoletoSentRecentlyError(new Date('2026-11-30T12:00:00Z'), new Date('2026-11-30T13:00:00Z')), code: 'boleto_enviado_recentemente',
    status: 409, exit: 1, fields: { enviado_em: '2026-11-30T12:00:00.000Z', proximo_envio_em: '2026-11-30T13:00:00.000Z' },
  },
  NossoNumeroExhaustedError: {
    error: new NossoNumeroExhaustedError('0b9e'), code: 'nosso_numero_esgotado', status: 409, exit: 1, fields: { conta_cobranca_id: '0b9e' },
  },
  ExtensionPendingError: { error: new ExtensionPendingError('0b9e'), code: 'prorrogacao_pendente', status: 409, exit: 1, fields: { id: '0b9e' } },
  NoProtestError: { error: new NoProtestError(), code: 'protesto_nao_pedido', status: 409, exit: 1 },
  EmptyRemessaError: { error: new EmptyRemessaError([]), code: 'remessa_vazia', status: 422, exit: 1, fields: { fora: [] } },
  AccountByApiError: { error: new AccountByApiError(), code: 'conta_cobranca_por_api', status: 409, exit: 1 },
  CustomerWithoutCnpjError: { error: new CustomerWithoutCnpjError(), code: 'empresa_sem_cnpj', status: 409, exit: 1 },
  BuyBackWithoutRecourseError: {
    error: new BuyBackWithoutRecourseError(['0b9e']), code: 'recompra_sem_coobrigacao', status: 409, exit: 1, fields: { titulo_ids: ['0b9e'] },
  },
  BuyBackStateError: { error: new BuyBackStateError('paga'), code: 'estado_invalido', status: 409, exit: 1, fields: { estado: 'paga' } },
  BuyBackTransactionInUseError: {
    error: new BuyBackTransactionInUseError('0b9e'), code: 'id_transacao_em_uso', status: 409, exit: 1, fields: { recompra_id: '0b9e' },
  },
  RetornoRecusadoError: {
    error: new RetornoRecusadoError(3, 'linha curta'), code: 'arquivo_cnab_recusado', status: 422, exit: 1, fields: { linha: 3, motivo: 'linha curta' },
  },
  EntryConfirmerError: { error: new EntryConfirmerError('the person who proposed it'), code: 'aprovacao_pelo_mesmo_usuario', status: 403, exit: 1 },
  ManualEntryStateError: {
    error: new ManualEntryStateError('confirmado'), code: 'estado_invalido', status: 409, exit: 1, fields: { estado: 'confirmado' },
  },
}

/** A CHECK constraint's refusal as pg reports it, wrapped by Drizzle: the caller's input, like the stores' own checks. */
const checkViolation = new Error('Failed query: INSERT INTO tokens …', {
  cause: Object.assign(new Error('new row for relation "tokens" violates check constraint "tokens_nome_imprimivel"'), { code: '23514' }),
})
const CASES: [string, Row][] = [...Object.entries(ROWS), ['a CHECK violation', { error: checkViolation, code: 'entrada_recusada', status: 422, exit: 2 }]]

/** Every `class X extends DomainError` of src/, by name. */
function domainClasses(dir = new URL('../../../src/', import.meta.url).pathname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return domainClasses(path)
    if (!e.name.endsWith('.ts')) return []
    return [...readFileSync(path, 'utf8').matchAll(/class (\w+) extends DomainError\b/g)].map((m) => m[1]!)
  })
}

describe('domain refusals', () => {
  it('every domain error class of src/ has its row here', () => {
    const found = domainClasses().sort()
    assert.ok(found.length >= 11, found.join(', '))
    assert.deepEqual(found, Object.keys(ROWS).sort())
  })

  it('HTTP: the code\'s status, headers and {"detail": code}, whatever route threw it', async (t) => {
    const app = Fastify({ logger: false })
    t.after(() => app.close())
    await app.register(errorHandler, {})
    app.get<{ Params: { n: string } }>('/api/recusa/:n', async (req) => { throw CASES[Number(req.params.n)]![1].error })
    for (const [i, [name, row]] of CASES.entries()) {
      const res = await app.inject({ url: `/api/recusa/${i}` })
      assert.equal(res.statusCode, row.status, name)
      assert.equal(res.body, JSON.stringify({ detail: row.code, ...row.fields }), name)
      for (const [header, value] of Object.entries(row.headers ?? {})) assert.equal(res.headers[header], value, `${name}: ${header}`)
      assert.ok(!res.body.includes('violates'), `${name}: no message of ours or the driver's reaches the client`)
    }
  })

  it('HTTP: a route whose 422 is documented as the validation list answers a 422 refusal\'s code and fields too, and the list', async (t) => {
    const app = Fastify({ logger: false })
    t.after(() => app.close())
    await app.register(errorHandler, {})
    const schema = { response: { 422: ValidationProblem('every item', ['cotacao_inviavel']) } }
    const items = [{ type: 'value_error', loc: ['body', 'data'], msg: 'Value error, no such day', input: '2026-02-30' }]
    app.get<{ Params: { n: string } }>('/api/recusa/:n', { schema }, async (req) => {
      throw req.params.n === 'lista' ? new RequestValidationError(items) : CASES[Number(req.params.n)]![1].error
    })
    const unprocessable = CASES.map(([name, row], i) => [name, row, i] as const).filter(([, row]) => row.status === 422)
    assert.ok(unprocessable.length >= 4)
    for (const [name, row, i] of unprocessable) {
      const res = await app.inject({ url: `/api/recusa/${i}` })
      assert.equal(res.statusCode, 422, `${name}: ${res.body}`)
      assert.equal(res.body, JSON.stringify({ detail: row.code, ...row.fields }), name)
    }
    const list = await app.inject({ url: '/api/recusa/lista' })
    assert.equal(list.statusCode, 422)
    assert.deepEqual(list.json(), { detail: items })
  })

  it('MCP: a tool error whose text is the problem body, and nothing logged as a failure', () => {
    const logged: unknown[] = []
    const by = { log: { error: (...args: unknown[]) => logged.push(args) } } as unknown as Parameters<typeof toolFailure>[1]['by']
    for (const [name, row] of CASES) {
      const result = toResult(toolFailure(row.error, { by }, 'revogar_token'))
      assert.equal(result.isError, true, name)
      assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify({ detail: row.code, ...row.fields }) }], name)
    }
    assert.deepEqual(logged, [], 'a refusal is an answer, not a fault')
    // Anything else is still the database's absence, logged.
    const other = toResult(toolFailure(new Error('Connection terminated'), { by }, 'revogar_token'))
    assert.deepEqual(other.content, [{ type: 'text', text: '{"detail":"servico_indisponivel"}' }])
    assert.equal(logged.length, 1)
  })

  it('a refusal\'s own body fields follow `detail` on HTTP and MCP alike, and never replace it', async (t) => {
    class HeldExternalId extends DomainError<'email_em_uso'> {
      constructor(id: string) {
        super('email_em_uso', 'held')
        this.fields = { id, detail: 'outro_codigo' }
      }
    }
    const app = Fastify({ logger: false })
    t.after(() => app.close())
    await app.register(errorHandler, {})
    app.get('/api/recusa', async () => { throw new HeldExternalId('0b9e…') })
    const res = await app.inject({ url: '/api/recusa' })
    assert.equal(res.statusCode, 409)
    assert.equal(res.body, '{"detail":"email_em_uso","id":"0b9e…"}')
    const by = { log: { error: () => {} } } as unknown as Parameters<typeof toolFailure>[1]['by']
    assert.deepEqual(toResult(toolFailure(new HeldExternalId('0b9e…'), { by }, 'versao')).content,
      [{ type: 'text', text: '{"detail":"email_em_uso","id":"0b9e…"}' }])
  })

  it('CLI: the operator\'s input is a usage error (exit 2), any other refusal one line (exit 1), with the refusal\'s message', () => {
    for (const [name, row] of CASES) {
      const failure = cliFailure(row.error)
      assert.equal(failure?.exitCode, row.exit, name)
      if (row.error === checkViolation) assert.doesNotMatch(failure.message, /tokens_nome|violates/, 'the driver\'s words are not the operator\'s')
      else assert.equal(failure.message, row.error.message, name)
    }
    assert.equal(cliFailure(new Error('connect ECONNREFUSED')), undefined, 'not a refusal: the CLI\'s own handling')
  })
})

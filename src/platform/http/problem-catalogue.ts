// Every error this service answers, by its stable `detail` code, as Fastify core lists its own in
// lib/errors.js: the status, the headers every answer of the code carries, and any body field besides
// `detail`. Answers are built from here by problem() (problem.ts) and nowhere else.
//
// Adding a code is one line here and its row in the published table (content/docs.md, "Códigos de erro");
// test/platform/http/problem-catalogue.test.ts fails until the two agree.

/** The header's value differs from answer to answer: whoever answers gives it to problem(). */
export const PER_ANSWER = Symbol('given per answer')
/** Written on the reply by @fastify/rate-limit (with RateLimit-*) before its problem is answered. */
export const BY_RATE_LIMIT = Symbol('written by the rate limiter')

export type CatalogueEntry = {
  status: number
  /** Header names in lower case: a fixed value, PER_ANSWER or BY_RATE_LIMIT. */
  headers?: Readonly<Record<string, string | typeof PER_ANSWER | typeof BY_RATE_LIMIT>>
  /** Body fields after `detail`, the same in every answer. */
  extra?: Readonly<Record<string, unknown>>
  /** Never answered by the assembled service, so not published (a fallback of a part used alone). */
  unpublished?: true
}

export const PROBLEMS = {
  requisicao_invalida: { status: 400 },
  // Idempotency-Key (src/platform/idempotency/): missing where a route requires it, or not a key (draft's syntax, 1–255).
  chave_idempotencia_ausente: { status: 400 },
  chave_idempotencia_invalida: { status: 400 },
  // The challenges name the DPoP algorithms and, after a refused credential, the RFC 6750/9449 error code.
  nao_autenticado: { status: 401, headers: { 'www-authenticate': PER_ANSWER } },
  token_invalido: { status: 401, headers: { 'www-authenticate': PER_ANSWER } },
  dpop_obrigatorio: { status: 401, headers: { 'www-authenticate': PER_ANSWER } },
  dpop_invalido: { status: 401, headers: { 'www-authenticate': PER_ANSWER, 'dpop-nonce': PER_ANSWER } },
  dpop_nonce_obrigatorio: { status: 401, headers: { 'www-authenticate': PER_ANSWER, 'dpop-nonce': PER_ANSWER } },
  assinatura_inativa: { status: 403 },
  escopo_insuficiente: { status: 403, headers: { 'www-authenticate': PER_ANSWER } },
  // The person behind the credential (a session, or the token's maker) has a role that does not reach this.
  papel_insuficiente: { status: 403 },
  csrf_invalido: { status: 403 },
  // Under /api, to a caller with a valid credential; the website answers its own 404 page elsewhere.
  nao_encontrado: { status: 404 },
  metodo_nao_permitido: { status: 405, headers: { allow: PER_ANSWER } },
  nao_aceitavel: { status: 406, headers: { 'cache-control': 'no-store' }, extra: { aceitos: ['text/html', 'text/markdown'] } },
  tempo_esgotado: { status: 408 },
  // The first request with this Idempotency-Key is still running.
  chave_idempotencia_em_uso: { status: 409, headers: { 'retry-after': PER_ANSWER } },
  corpo_muito_grande: { status: 413 },
  // The Idempotency-Key was used for another request (method, path or body differ).
  chave_idempotencia_reutilizada: { status: 422 },
  limite_de_requisicoes: { status: 429, headers: { 'retry-after': BY_RATE_LIMIT } },
  // The customer runs CLIENTE_MAX_SIMULTANEAS requests on this instance and its line is full or waited too long.
  requisicoes_simultaneas: { status: 429, headers: { 'retry-after': PER_ANSWER } },
  cabecalho_muito_grande: { status: 431 },
  erro_interno: { status: 500 },
  banco_indisponivel: { status: 503, headers: { 'retry-after': PER_ANSWER } },
  servico_indisponivel: { status: 503, headers: { 'retry-after': PER_ANSWER } },

  // Domain refusals (src/platform/http/domain-error.ts, each class carries its code), answered the same way on every surface:
  // the CLI and the web app's pages render them today, an /api route that meets one answers it as JSON.
  // A value that breaks a rule of the model (a name, a CNPJ, an expiry, a scope, a maintenance window).
  entrada_recusada: { status: 422 },
  // The e-mail already belongs to a person (login finds people by e-mail alone).
  email_em_uso: { status: 409 },
  // A role change or a suspension that would leave the customer with no active administrador.
  ultimo_administrador: { status: 409 },
  // The customer has a register of this kind with this document already; the body's `id` names it.
  documento_em_uso: { status: 409 },
  // The customer has a resource of this kind with this id_externo already; the body's `id` names it.
  id_externo_em_uso: { status: 409 },
  // The customer has this holiday for this place already; the body's `id` names it.
  feriado_existente: { status: 409 },
  // The customer has this collection account already (bank, agência, conta and carteira); the body's `id` names it.
  conta_cobranca_existente: { status: 409 },
  conta_cobranca_de_outro_cliente: { status: 409 },
  prorrogacao_pendente: { status: 409 },
  nosso_numero_esgotado: { status: 409 },
  boleto_enviado_recentemente: { status: 409 },
  // Webhooks (src/modules/webhooks): a customer's live endpoints are bounded (`limite` names the bound).
  webhooks_no_limite: { status: 409 },
  // Charges (src/modules/collections/charges): a título not acquired or with no open balance (`estado`); a título with a
  // live charge (`id` names it); an account not confirmed by a second person, or inactive; a nosso número given under
  // the account already (`id` names the charge that has it).
  titulo_nao_adquirido: { status: 409 },
  titulo_ja_cobrado: { status: 409 },
  conta_cobranca_nao_confirmada: { status: 409 },
  conta_cobranca_inativa: { status: 409 },
  nosso_numero_em_uso: { status: 409 },
  // A boleto e-mailed to a sacado whose register has no address (`sacado_id` names it).
  sacado_sem_email: { status: 409 },
  // Instructions (src/modules/collections/instructions): a charge the bank does not hold (`estado`); a baixa asked
  // already (`id` names it); a protest withdrawn where none was asked.
  cobranca_nao_registrada: { status: 409 },
  baixa_ja_pedida: { status: 409 },
  protesto_nao_pedido: { status: 409 },
  // CNAB remessas (src/modules/collections/remessas): nothing pending for the bank (`fora` lists what waits, and why);
  // an account whose bank is spoken to by API; a customer whose CNPJ the file's header needs is not recorded.
  remessa_vazia: { status: 422 },
  conta_cobranca_por_api: { status: 409 },
  empresa_sem_cnpj: { status: 409 },
  // A CNAB retorno that breaks its layout, or whose trailers do not match its lines: refused whole, naming the `linha`
  // (1 the first) and the `motivo`; nothing of it is stored or applied (src/modules/collections/retornos).
  arquivo_cnab_recusado: { status: 422 },
  // A buy-back for the sacado's default of títulos whose product carries no coobrigação (`titulo_ids`): void in plain
  // factoring (STJ, REsp 1.711.412/MG), refused (src/modules/collections/recompras).
  recompra_sem_coobrigacao: { status: 409 },
  // Operations (src/modules/operations): a transition from a state it does not leave (the body's `estado` is the
  // current one); a quote not the latest (`cotacao_versao`) or past its day (`valida_ate`); limits (`limites`);
  // a blocked register (`cadastros`); an NF-e key financed already (`chave_nfe`, `titulo_id`).
  estado_invalido: { status: 409 },
  cotacao_desatualizada: { status: 409 },
  cotacao_expirada: { status: 409 },
  limite_excedido: { status: 409 },
  cadastro_bloqueado: { status: 409 },
  // The product asks for every título to be confirmed with its sacado before acceptance (migration 0049): the others,
  // each with its `confirmacao_estado`, in `titulos` (src/modules/operations/flow/accept.ts).
  titulos_nao_confirmados: { status: 409 },
  // The product asks for a clean query of the registry of duplicatas escriturais before acceptance (migration 0050):
  // each duplicata whose last query is not `livre`, with its `registro_estado` and `registro_situacao`, in `titulos`.
  registro_impedido: { status: 409 },
  // A registry query of a título that is not a duplicata escritural (a cheque, a promissory note…; `tipo`).
  titulo_sem_registro: { status: 409 },
  // Removing from a draft a título confirmed with its sacado or queried at the registry (`titulo_id`): those records are kept.
  titulo_com_verificacoes: { status: 409 },
  titulo_duplicado: { status: 409 },
  // Money priced for one day leaves that day: an acceptance before the operation's date (`data_operacao`, `hoje`),
  // a payment asked, approved or recorded on another Brasília day (`data_operacao`, `data_pagamento`).
  operacao_antes_da_data: { status: 409 },
  pagamento_fora_da_data: { status: 409 },
  // A transfer's id_transacao recorded for another of the customer's payments (`desembolso_id` names it).
  id_transacao_em_uso: { status: 409 },
  conta_bancaria_nao_confirmada: { status: 409 },
  limite_de_titulos: { status: 409 },
  // A posting that would take the customer's ledger past 2^53 − 1 centavos in all (`limite_centavos`): no total it
  // serves could then be an exact JSON number (src/modules/ledger, migration 0030).
  total_contabil_excedido: { status: 409 },
  // A payment approved by the person who asked for it, or by a token with no person.
  aprovacao_pelo_mesmo_usuario: { status: 403 },
  // A borderô whose price is not positive (`motivo`: preco_nao_positivo with the título's `indice`, or liquido_nao_positivo).
  cotacao_inviavel: { status: 422 },
  // An invitation used, expired, or whose person is no longer waiting for it.
  convite_inutilizavel: { status: 410 },
  // No IOF rate covers the operation's date for the profile (src/modules/pricing): a gap is refused, never guessed.
  iof_sem_aliquota: { status: 422 },
} as const satisfies Record<string, CatalogueEntry>

/** A code of the catalogue: what every surface (HTTP, MCP, CLI, pages) names an error by. */
export type DetailCode = keyof typeof PROBLEMS

/** The body of a 422: `detail` is the list of FastAPI-shaped items (RequestValidationError), not a code. */
export const VALIDATION_STATUS = 422

export type PageText = readonly [titulo: string, explicacao: string]

/**
 * What the website's error page says for each status a visitor's browser may meet there. By status, as the
 * page shows the status, not the code (both 503 codes read the same); 403, 415 and 422 are statuses of the
 * site's own form handler (a cross-site post, a body that is not a form, one that cannot be read).
 */
export const PAGE_TEXT: Readonly<Record<number, PageText>> = {
  400: ['Requisição inválida', 'O pedido não pôde ser entendido.'],
  403: ['Envio recusado', 'O formulário só pode ser enviado a partir deste site.'],
  405: ['Método não permitido', 'Esta página não aceita este método.'],
  413: ['Envio grande demais', 'O conteúdo enviado passa do tamanho aceito. Encurte a mensagem e envie de novo.'],
  415: ['Formato não aceito', 'Envie o formulário como application/x-www-form-urlencoded, ou use a API com JSON.'],
  422: ['Envio ilegível', 'O conteúdo enviado não pôde ser lido. Preencha o formulário e envie de novo.'],
  429: ['Muitas requisições', 'Foram feitos pedidos demais em pouco tempo. Aguarde e tente de novo.'],
  500: ['Erro interno', 'Algo deu errado do nosso lado. Tente de novo em instantes; se persistir, veja a página de status.'],
  503: [
    'Serviço indisponível',
    'Não foi possível registrar sua mensagem agora e nada foi enviado. Tente de novo em instantes; se persistir, veja a página de status.',
  ],
}

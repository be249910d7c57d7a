// Each back office form as the API request it makes: the body built from the form's fields (amounts typed in
// reais read to centavos, percentages to the fractions the API takes, a local time in Brasília to an instant),
// where the person goes once it is done, and which page shows a refusal. What a field cannot be read as is
// refused here, under the API's own field name, before any request.
import { Decimal } from 'decimal.js'
import { TIPOS_TITULO } from '../pricing/index.ts'
import { centavosOf } from '../../platform/lib/typed-reais.ts'
import { MANUAL_ENTRY_ACTIONS } from './manual-entry-form.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'
import type { UploadTarget } from './upload.ts'

export type PageRef = {
  kind: 'operacoes' | 'cedentes' | 'sacados' | 'produtos' | 'feriados' | 'desembolsos' | 'razao' | 'auditoria' | 'titulos' | 'cobrancas' | 'retornos'
    | 'recompras' | 'remessas' | 'contas-cobranca' | 'nova-cobranca' | 'webhooks',
}
  | { kind: 'operacao' | 'cedente' | 'retorno', id: string, titulosApos?: string | undefined }
  | { kind: 'webhook', id: string }
  | { kind: 'painel' }
  | { kind: 'lancamentos-manuais' }

export type Built = { body?: object, errors: Record<string, string> }

export type Action = {
  method: 'POST' | 'PATCH' | 'DELETE'
  /** The API path, given the form path's `id` (and the form's fields, for the ones that name a second id). */
  url(id: string, f: Fields): string
  build(f: Fields): Built
  /** What the person is told once it is done (on the page they are sent to). */
  notice: string
  /** Where the person goes after it is done. */
  done(id: string, answer: { id?: string }, f: Fields): string
  /** The page that shows a refusal (with what was typed). */
  page(id: string, f: Fields): PageRef
  /** A 422 item's field, as the form names it (a título's fields are the first of a list). */
  field?(loc: string): string
  /** The form's file, sent before the action's own request (upload.ts). */
  upload?: UploadTarget
  /** The form field whose file is the action's own request's body (a bank's retorno), in place of a JSON body. */
  fileBody?: string
  /** What the person is told when the API answers 200, the same thing sent before (a retorno already received). */
  repeatedNotice?: string
}

/** The `feito` of a redirect after the action answered `status`: its name, or its repeated notice's. */
export const doneName = (name: string, status: number): string =>
  (status === 200 && ACTIONS[name]?.repeatedNotice ? `${name}.repetido` : name)

/** The notice a page shows for its `feito`. */
export function noticeOf(done: string | undefined): string | undefined {
  if (done === undefined) return undefined
  if (done.endsWith('.repetido')) {
    const name = done.slice(0, -'.repetido'.length)
    return Object.hasOwn(ACTIONS, name) ? ACTIONS[name]!.repeatedNotice : undefined
  }
  return Object.hasOwn(ACTIONS, done) ? ACTIONS[done]!.notice : undefined
}

/** A form's fields: text trimmed, empty as undefined. */
export type Fields = { get(name: string): string | undefined }

export function fieldsOf(params: URLSearchParams): Fields {
  return { get: (name) => params.get(name)?.trim().slice(0, 2000) || undefined }
}

const MESSAGE_AMOUNT = 'valor em reais, como 1.234,56'

/** `name` in reais as `key` in centavos, if given; its error under `key` if it is not an amount. */
function amount(f: Fields, name: string, key: string, errors: Record<string, string>, required = false): number | undefined {
  const typed = f.get(name)
  if (typed === undefined) {
    if (required) errors[key] = 'obrigatório'
    return undefined
  }
  const c = centavosOf(typed)
  if (c === undefined) errors[key] = MESSAGE_AMOUNT
  return c
}

/** A percentage typed ("3,5") as the fraction the API takes ("0.035"), in decimal: no float. */
function fraction(f: Fields, name: string, errors: Record<string, string>): string | undefined {
  const typed = f.get(name)
  if (typed === undefined) return undefined
  if (!/^\d{1,3}([.,]\d{1,10})?$/.test(typed)) {
    errors[name] = 'percentual, como 3,5'
    return undefined
  }
  return new Decimal(typed.replace(',', '.')).div(100).toFixed()
}

/** A `datetime-local` value, read as Brasília's time (UTC−3, no daylight saving since 2019), as an instant. */
function instant(f: Fields, name: string, errors: Record<string, string>): string | undefined {
  const typed = f.get(name)
  if (typed === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(typed)) {
    errors[name] = 'data e hora, como 05/10/2026 14:30'
    return undefined
  }
  return `${typed.length === 16 ? `${typed}:00` : typed}-03:00`
}

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

function party(f: Fields, cedente: boolean): Built {
  const errors: Record<string, string> = {}
  const documento = f.get('documento')
  const limite = amount(f, 'limite', 'limite_centavos', errors)
  const banco = f.get('banco')
  const simples = f.get('simples_data') || f.get('simples_sha256')
  const body = defined({
    documento, razao_social: f.get('razao_social'), limite_centavos: limite, municipio_ibge: f.get('municipio_ibge'), uf: f.get('uf')?.toUpperCase(),
    ...(cedente ? {
      perfil_iof: f.get('perfil_iof'), motivo_isencao: f.get('motivo_isencao'),
      declaracao_simples: simples ? { data: f.get('simples_data') ?? '', sha256: f.get('simples_sha256') ?? '' } : undefined,
      contas_bancarias: banco || f.get('conta') ? [{
        banco: banco ?? '', agencia: f.get('agencia') ?? '', conta: f.get('conta') ?? '', digito: f.get('digito') ?? '', titular_documento: documento ?? '',
      }] : undefined,
    } : {
      logradouro: f.get('logradouro'), numero: f.get('numero'), complemento: f.get('complemento'), bairro: f.get('bairro'),
      // The CEP typed as people write it (13010-000), sent as its 8 digits.
      cep: f.get('cep')?.replace(/^(\d{5})-(\d{3})$/, '$1$2'), cidade: f.get('cidade'),
    }),
  })
  return { body, errors }
}

const operation = (id: string): PageRef => ({ kind: 'operacao', id })
const back = (f: Fields, fallback: string) => {
  // Only one of the two pages that show a payment (never another site's address, nor any other path).
  const to = f.get('volta')
  return to && (to === P.desembolsos || /^\/conta\/operacoes\/[0-9a-f-]{36}$/.test(to)) ? to : fallback
}

export const ACTIONS: Record<string, Action> = {
  'cedentes': {
    method: 'POST', url: () => '/api/cedentes', build: (f) => party(f, true),
    notice: 'Cedente cadastrado.', done: () => P.cedentes, page: () => ({ kind: 'cedentes' }),
    // A declaration missing, or given to another profile, is told beside its first field.
    field: (loc) => (loc === 'declaracao_simples' ? 'declaracao_simples.data' : loc),
  },
  'sacados': {
    method: 'POST', url: () => '/api/sacados', build: (f) => party(f, false),
    notice: 'Sacado cadastrado.', done: () => P.sacados, page: () => ({ kind: 'sacados' }),
  },
  'produtos': {
    method: 'POST', url: () => '/api/produtos',
    build(f) {
      const errors: Record<string, string> = {}
      const float = f.get('dias_float')
      const dias = float !== undefined && /^\d{1,2}$/.test(float) && Number(float) <= 10 ? Number(float) : undefined
      if (float !== undefined && dias === undefined) errors.dias_float = 'de 0 a 10 dias'
      const body = defined({
        nome: f.get('nome'), base: f.get('base'), taxa_mensal: fraction(f, 'taxa_mensal', errors),
        taxa_ad_valorem: fraction(f, 'taxa_ad_valorem', errors) ?? '0',
        tarifa_por_titulo_centavos: amount(f, 'tarifa', 'tarifa_por_titulo_centavos', errors) ?? 0, tac_centavos: amount(f, 'tac', 'tac_centavos', errors) ?? 0,
        dias_float: dias === undefined ? undefined
          : Object.fromEntries(TIPOS_TITULO.map((t) => [t, dias])),
        iof: f.get('iof'), motivo_isencao: f.get('motivo_isencao'),
      })
      return { body, errors }
    },
    notice: 'Produto criado.', done: () => P.produtos, page: () => ({ kind: 'produtos' }),
    field: (loc) => (loc.startsWith('dias_float') ? 'dias_float' : loc),
  },
  'feriados': {
    method: 'POST', url: () => '/api/feriados',
    build: (f) => ({
      body: defined({ data: f.get('data'), descricao: f.get('descricao'), municipio_ibge: f.get('municipio_ibge'), uf: f.get('uf')?.toUpperCase() }),
      errors: {},
    }),
    notice: 'Feriado incluído.', done: () => P.feriados, page: () => ({ kind: 'feriados' }),
  },
  'feriados/remover': {
    method: 'DELETE', url: (_, f) => `/api/feriados/${encodeURIComponent(f.get('feriado_id') ?? '-')}`, build: () => ({ errors: {} }),
    notice: 'Feriado removido.', done: () => P.feriados, page: () => ({ kind: 'feriados' }),
  },
  'cobranca/email': {
    method: 'POST', url: (id) => `/api/cobrancas/${id}/email`, build: () => ({ body: {}, errors: {} }),
    notice: 'Boleto enviado ao e-mail do sacado: a mensagem sai pela fila de e-mails.', done: () => P.cobrancas, page: () => ({ kind: 'cobrancas' }),
  },
  'cobrancas': {
    method: 'POST', url: () => '/api/cobrancas',
    build(f) {
      const errors: Record<string, string> = {}
      if (f.get('titulo_id') === undefined) errors.titulo_id = 'escolha o título a cobrar'
      if (f.get('conta_cobranca_id') === undefined) errors.conta_cobranca_id = 'escolha a conta de cobrança'
      const tipo = f.get('juros_tipo') ?? 'isento'
      let juros: object = { tipo: 'isento' }
      if (tipo === 'valor_dia') {
        const typed = f.get('juros_valor')
        const centavos = typed === undefined ? undefined : centavosOf(typed)
        if (centavos === undefined) errors.juros_valor = 'escreva o valor por dia em reais, como 4,12'
        else juros = { tipo, valor_centavos: centavos }
      } else if (tipo === 'taxa_mensal') {
        const taxa = fraction(f, 'juros_taxa', errors)
        if (taxa === undefined && !errors.juros_taxa) errors.juros_taxa = 'percentual ao mês, como 1 ou 0,99'
        else if (taxa !== undefined) juros = { tipo, taxa }
      }
      const dias = f.get('protesto_dias')
      if (dias !== undefined && !/^[0-9]{1,2}$/.test(dias)) errors.protesto_dias = 'dias corridos, de 1 a 99 (vazio: não protestar)'
      return {
        body: defined({ titulo_id: f.get('titulo_id'), conta_cobranca_id: f.get('conta_cobranca_id'), juros,
          multa_percentual: fraction(f, 'multa', errors), protesto_dias: dias === undefined ? undefined : Number(dias) }),
        errors,
      }
    },
    field: (loc) => ({ 'juros.valor_centavos': 'juros_valor', 'juros.taxa': 'juros_taxa', 'multa_percentual': 'multa' } as Record<string, string>)[loc] ?? loc,
    notice: 'Cobrança emitida: o boleto está na lista e vai ao banco pela conta (pela API, ou na próxima remessa).', done: () => P.cobrancas,
    page: () => ({ kind: 'nova-cobranca' }),
  },
  'contas-cobranca': {
    method: 'POST', url: () => '/api/contas-cobranca',
    build(f) {
      const errors: Record<string, string> = {}
      for (const [name, what] of [['nome', 'o nome da conta'], ['agencia', 'a agência'], ['conta', 'a conta'], ['conta_digito', 'o dígito da conta'],
        ['carteira', 'a carteira']] as const) {
        if (f.get(name) === undefined) errors[name] = `escreva ${what}`
      }
      return {
        body: defined({ nome: f.get('nome'), banco: f.get('banco'), agencia: f.get('agencia'), conta: f.get('conta'), conta_digito: f.get('conta_digito'),
          carteira: f.get('carteira'), convenio: f.get('convenio'), layout_cnab: f.get('layout_cnab'), transporte: f.get('transporte'),
          chave_pix: f.get('chave_pix') }),
        errors,
      }
    },
    notice: 'Conta de cobrança incluída: outra pessoa a confirma antes do primeiro boleto.', done: () => P.contasCobranca,
    page: () => ({ kind: 'contas-cobranca' }),
  },
  'conta-cobranca/confirmacao': {
    method: 'POST', url: (id) => `/api/contas-cobranca/${id}/confirmacao`, build: () => ({ errors: {} }),
    notice: 'Conta de cobrança confirmada: já se emitem boletos nela.', done: () => P.contasCobranca,
    page: () => ({ kind: 'contas-cobranca' }),
  },
  'instrucoes': {
    method: 'POST', url: (_, f) => `/api/cobrancas/${encodeURIComponent(f.get('cobranca_id') ?? '-')}/instrucoes`,
    build(f) {
      const errors: Record<string, string> = {}
      const instrucao = f.get('instrucao')
      if (f.get('cobranca_id') === undefined) errors.cobranca_id = 'escolha a cobrança'
      if (instrucao === undefined) errors.instrucao = 'escolha a instrução'
      const typed = f.get('abatimento')
      const abatimento = instrucao === 'abatimento' && typed !== undefined ? centavosOf(typed) : undefined
      if (instrucao === 'abatimento' && typed !== undefined && abatimento === undefined) errors.abatimento = 'escreva o valor em reais, como 1.234,56'
      const body = defined({
        instrucao,
        vencimento: instrucao === 'alteracao_vencimento' ? f.get('vencimento') : undefined,
        abatimento_centavos: abatimento,
      })
      return { body, errors }
    },
    field: (loc) => (loc === 'abatimento_centavos' ? 'abatimento' : loc),
    notice: 'Instrução pedida: vai ao banco pela conta da cobrança (pela API, ou na próxima remessa).', done: () => P.cobrancas,
    page: () => ({ kind: 'cobrancas' }),
  },
  'recompras': {
    method: 'POST', url: () => '/api/recompras',
    build(f) {
      const errors: Record<string, string> = {}
      const titulo = f.get('titulo_id')
      if (titulo === undefined) errors.titulo_id = 'escolha o título recomprado'
      return { body: defined({ titulo_ids: titulo === undefined ? undefined : [titulo], motivo: f.get('motivo'), forma: f.get('forma'),
        descricao: f.get('descricao') ?? '' }), errors }
    },
    field: (loc) => (loc.startsWith('titulo_ids') ? 'titulo_id' : loc),
    notice: 'Recompra registrada: o valor foi lançado na conta gráfica do cedente.', done: () => P.recompras, page: () => ({ kind: 'recompras' }),
  },
  'recompra/pagamento': {
    method: 'POST', url: (id) => `/api/recompras/${id}/pagamento`,
    build(f) {
      const errors: Record<string, string> = {}
      return { body: { id_transacao: f.get('id_transacao') ?? '', pago_em: instant(f, 'pago_em', errors) ?? '' }, errors }
    },
    notice: 'Pagamento da recompra registrado.', done: () => P.recompras, page: () => ({ kind: 'recompras' }),
  },
  'recompra/cancelamento': {
    method: 'POST', url: (id) => `/api/recompras/${id}/cancelamento`,
    build: (f) => ({ body: { motivo: f.get('motivo_cancelamento') ?? '' }, errors: {} }),
    field: (loc) => (loc === 'motivo' ? 'motivo_cancelamento' : loc),
    notice: 'Recompra cancelada: o lançamento dela foi estornado e os títulos voltaram a adquiridos (emita novas cobranças para eles).',
    done: () => P.recompras, page: () => ({ kind: 'recompras' }),
  },
  'webhook/teste': {
    method: 'POST', url: (id) => `/api/webhooks/${id}/teste`, build: () => ({ errors: {} }),
    notice: 'Evento de teste enviado: ele aparece nas entregas do webhook assim que o endereço responder.',
    done: (id) => P.webhook(id), page: () => ({ kind: 'webhooks' }),
  },
  'webhook/desativacao': {
    method: 'PATCH', url: (id) => `/api/webhooks/${id}`, build: () => ({ body: { ativo: false }, errors: {} }),
    notice: 'Webhook desativado: nenhum evento novo vai para ele até que seja reativado.', done: () => P.webhooks, page: () => ({ kind: 'webhooks' }),
  },
  'webhook/reativacao': {
    method: 'PATCH', url: (id) => `/api/webhooks/${id}`, build: () => ({ body: { ativo: true }, errors: {} }),
    notice: 'Webhook reativado: as entregas que esperavam saem agora, na ordem.', done: () => P.webhooks, page: () => ({ kind: 'webhooks' }),
  },
  'webhook/reenvio': {
    method: 'POST', url: (id, f) => `/api/webhooks/${id}/entregas/${encodeURIComponent(f.get('entrega_id') ?? '-')}/reenvio`,
    build: () => ({ errors: {} }),
    notice: 'Entrega reenviada: o evento sai de novo, com o mesmo Webhook-Id.', done: (id) => P.webhook(id), page: (id) => ({ kind: 'webhook', id }),
  },
  'remessas': {
    method: 'POST', url: () => '/api/cnab/remessas', build: (f) => ({ body: defined({ conta_cobranca_id: f.get('conta_cobranca_id') }), errors: {} }),
    notice: 'Remessa gerada: baixe o arquivo e envie-o ao banco.', done: () => P.remessas, page: () => ({ kind: 'remessas' }),
  },
  'operacoes': {
    method: 'POST', url: () => '/api/operacoes',
    build: (f) => ({ body: defined({ cedente_id: f.get('cedente_id'), produto_id: f.get('produto_id'), data_operacao: f.get('data_operacao') }), errors: {} }),
    notice: 'Operação aberta: inclua os títulos.', done: (_, answer) => P.operacao(answer.id!), page: () => ({ kind: 'operacoes' }),
  },
  'operacao/titulos': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/titulos`,
    build(f) {
      const errors: Record<string, string> = {}
      const titulo = defined({
        tipo: f.get('tipo'), numero: f.get('numero'), sacado_id: f.get('sacado_id'), emissao: f.get('emissao'), vencimento: f.get('vencimento'),
        valor_face_centavos: amount(f, 'valor_face', 'valor_face_centavos', errors, true), chave_nfe: f.get('chave_nfe')?.replace(/\s/g, ''),
      })
      return { body: { titulos: [titulo] }, errors }
    },
    notice: 'Título incluído.', done: (id) => P.operacao(id), page: operation,
    field: (loc) => loc.replace(/^titulos\.0\./, ''),
  },
  'operacao/remover-titulo': {
    method: 'DELETE', url: (id, f) => `/api/operacoes/${id}/titulos/${encodeURIComponent(f.get('titulo_id') ?? '-')}`, build: () => ({ errors: {} }),
    notice: 'Título removido.', done: (id) => P.operacao(id), page: operation,
  },
  // A título's confirmation with its sacado and its registry query, from its row on the operation's page.
  'operacao/confirmacao-link': {
    method: 'POST', url: (_id, f) => `/api/titulos/${encodeURIComponent(f.get('titulo_id') ?? '-')}/confirmacao`,
    build: () => ({ body: { meio: 'link' }, errors: {} }),
    notice: 'Link de confirmação enviado ao e-mail do sacado: a resposta dele aparece na coluna Confirmação.', done: (id) => P.operacao(id), page: operation,
  },
  'operacao/consulta-registro': {
    method: 'POST', url: (_id, f) => `/api/titulos/${encodeURIComponent(f.get('titulo_id') ?? '-')}/registro/consulta`, build: () => ({ errors: {} }),
    notice: 'Consulta ao registro pedida: o resultado aparece na coluna Registro em instantes.', done: (id) => P.operacao(id), page: operation,
  },
  'operacao/cotacao': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/cotacao`, build: () => ({ errors: {} }),
    notice: 'Operação cotada: confira cada linha antes de aceitar.', done: (id) => P.operacao(id), page: operation,
  },
  'operacao/aceite': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/aceite`,
    build(f): Built {
      const versao = f.get('cotacao_versao')
      return /^\d{1,9}$/.test(versao ?? '') ? { body: { cotacao_versao: Number(versao) }, errors: {} } : { errors: { cotacao_versao: 'recarregue a página' } }
    },
    notice: 'Cotação aceita: a aquisição foi lançada no razão.', done: (id) => P.operacao(id), page: operation,
  },
  'operacao/formalizacao': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/formalizacao`,
    build(f) {
      const errors: Record<string, string> = {}
      const assinado = instant(f, 'assinado_em', errors)
      // The file sent (upload.ts) gives the hash; without one, the hash typed (the term kept elsewhere).
      const typed = f.get('termo_sha256')
      if (f.get('termo_arquivo') === undefined && typed === undefined) errors.termo_sha256 = 'envie o arquivo do termo assinado ou digite o SHA-256 dele'
      const body = {
        ...(typed !== undefined ? { termo_sha256: typed } : {}), assinado_em: assinado ?? '',
        signatarios: [{ nome: f.get('signatario_nome') ?? '', documento: f.get('signatario_documento') ?? '' }],
      }
      return { body, errors }
    },
    notice: 'Termo de cessão registrado: a operação está formalizada.', done: (id) => P.operacao(id), page: operation,
    field: (loc) => loc.replace(/^signatarios\.0\./, 'signatario_'),
    upload: { field: 'termo_arquivo', url: (id) => `/api/operacoes/${id}/termo` },
  },
  'operacao/desembolso': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/desembolso`,
    build(f) {
      const conta = f.get('conta_bancaria')?.split('|')
      return { body: conta?.length === 4 ? { conta_bancaria: { banco: conta[0], agencia: conta[1], conta: conta[2], digito: conta[3] } } : {}, errors: {} }
    },
    notice: 'Desembolso pedido: outra pessoa da empresa aprova.', done: (id) => P.operacao(id), page: operation,
  },
  'operacao/cancelamento': {
    method: 'POST', url: (id) => `/api/operacoes/${id}/cancelamento`, build: (f) => ({ body: { motivo: f.get('motivo') ?? '' }, errors: {} }),
    notice: 'Operação cancelada.', done: (id) => P.operacao(id), page: operation,
  },
  'desembolso/aprovacao': {
    method: 'POST', url: (id) => `/api/desembolsos/${id}/aprovacao`, build: () => ({ errors: {} }),
    notice: 'Desembolso aprovado: falta registrar a transferência.', done: (_, __, f) => back(f, P.desembolsos),
    page: (_, f) => pageOf(back(f, P.desembolsos)),
  },
  'desembolso/falha': {
    method: 'POST', url: (id) => `/api/desembolsos/${id}/falha`, build: (f) => ({ body: { motivo: f.get('motivo') ?? '' }, errors: {} }),
    notice: 'Falha registrada: a operação pode pedir o desembolso de novo.', done: (_, __, f) => back(f, P.desembolsos),
    page: (_, f) => pageOf(back(f, P.desembolsos)),
  },
  'desembolso/pagamento': {
    method: 'POST', url: (id) => `/api/desembolsos/${id}/pagamento`,
    build(f) {
      const errors: Record<string, string> = {}
      return { body: { id_transacao: f.get('id_transacao') ?? '', pago_em: instant(f, 'pago_em', errors) ?? '' }, errors }
    },
    notice: 'Transferência registrada: a operação está desembolsada.', done: (_, __, f) => back(f, P.desembolsos),
    page: (_, f) => pageOf(back(f, P.desembolsos)),
  },
  'desembolso/recusa': {
    method: 'POST', url: (id) => `/api/desembolsos/${id}/recusa`, build: (f) => ({ body: { motivo: f.get('motivo') ?? '' }, errors: {} }),
    notice: 'Desembolso recusado: quem pediu vê o motivo, e a operação pode pedir de novo.', done: (_, __, f) => back(f, P.desembolsos),
    page: (_, f) => pageOf(back(f, P.desembolsos)),
  },
  'retornos': {
    method: 'POST', url: (_, f) => `/api/cnab/retornos?conta_cobranca_id=${encodeURIComponent(f.get('conta_cobranca_id') ?? '')}`,
    build(f) {
      const errors: Record<string, string> = {}
      if (f.get('conta_cobranca_id') === undefined) errors.conta_cobranca_id = 'escolha a conta de cobrança do arquivo'
      if (f.get('arquivo') === undefined) errors.arquivo = 'escolha o arquivo de retorno que o banco entregou'
      return { errors }
    },
    fileBody: 'arquivo',
    notice: 'Retorno recebido: cada linha do arquivo está abaixo, com o que moveu.', done: (_, answer) => P.retorno(answer.id!),
    repeatedNotice: 'Este arquivo já tinha sido enviado para esta conta: nada foi aplicado de novo. Abaixo, o que ele moveu quando chegou.',
    page: () => ({ kind: 'retornos' }),
  },
  ...MANUAL_ENTRY_ACTIONS,
}

/** The page a back office path shows. */
function pageOf(path: string): PageRef {
  const op = /^\/conta\/operacoes\/([0-9a-f-]{36})$/.exec(path)
  return op ? { kind: 'operacao', id: op[1]! } : { kind: 'desembolsos' }
}

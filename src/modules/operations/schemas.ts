// The JSON shapes of operations, títulos, quotes and payments: what the routes validate, serialize and document.
import { Type, type Static } from 'typebox'
import { Centavos, Day, MotivoIn } from '../../platform/http/api-schemas.ts'
import { writtenTextPattern } from '../../platform/lib/chosen-name.ts'
import { TIPOS_TITULO } from '../pricing/index.ts'
import { ESTADOS_CONFIRMACAO, ESTADOS_DESEMBOLSO, ESTADOS_OPERACAO, ESTADOS_REGISTRO, ESTADOS_TITULO } from './tables.ts'

const Int = Type.Integer()
const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const IdExterno = Type.Optional(Type.String({ pattern: '^[!-~]{1,64}$', description: 'The customer\'s own id, 1–64 visible ASCII characters.' }))

export const TituloIn = Type.Object({
  id_externo: IdExterno,
  tipo: Type.String({ enum: [...TIPOS_TITULO] }),
  numero: Type.String({ minLength: 1, maxLength: 60 }),
  sacado_id: Uuid,
  emissao: Day,
  vencimento: Day,
  valor_face_centavos: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  chave_nfe: Type.Optional(Type.String({ pattern: '^[0-9]{44}$', description: 'The NF-e access key, 44 digits, its check digit verified.' })),
}, { additionalProperties: false })
export type TituloInT = Static<typeof TituloIn>

/** The most títulos one request adds (a larger borderô is added in parts). */
export const TITULOS_POR_PEDIDO = 1000

export const OperacaoIn = Type.Object({
  id_externo: IdExterno,
  cedente_id: Uuid,
  produto_id: Uuid,
  data_operacao: Type.Optional(Day),
  titulos: Type.Optional(Type.Array(TituloIn, { maxItems: TITULOS_POR_PEDIDO })),
}, { additionalProperties: false })
export type OperacaoInT = Static<typeof OperacaoIn>

export const TitulosIn = Type.Object({ titulos: Type.Array(TituloIn, { minItems: 1, maxItems: TITULOS_POR_PEDIDO }) }, { additionalProperties: false })

export const AceiteIn = Type.Object({
  cotacao_versao: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The quote accepted: it must be the latest.' }),
}, { additionalProperties: false })

export const FormalizacaoIn = Type.Object({
  termo_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'The SHA-256 of the signed assignment term, hex. '
    + 'Optional when the term was sent (PUT /api/operacoes/{id}/termo): its SHA-256 is recorded, and one given must equal it.' })),
  assinado_em: Type.String({ format: 'date-time' }),
  signatarios: Type.Array(Type.Object({
    nome: Type.String({ minLength: 2, maxLength: 200, pattern: writtenTextPattern(2) }), documento: Type.String({ minLength: 11, maxLength: 18 }),
  },
    { additionalProperties: false }), { minItems: 1, maxItems: 20 }),
}, { additionalProperties: false })
export type FormalizacaoInT = Static<typeof FormalizacaoIn>

const Conta = Type.Object({
  banco: Type.String({ pattern: '^[0-9]{3}$' }), agencia: Type.String({ pattern: '^[0-9]{1,5}$' }), conta: Type.String({ pattern: '^[0-9]{1,13}$' }),
  digito: Type.String({ pattern: '^[0-9Xx]{1,2}$' }),
}, { additionalProperties: false })

export const DesembolsoIn = Type.Object({
  conta_bancaria: Type.Optional(Type.Object(Conta.properties, {
    additionalProperties: false, description: 'One of the cedente\'s accounts; optional when the cedente has exactly one.',
  })),
}, { additionalProperties: false })
export type DesembolsoInT = Static<typeof DesembolsoIn>

export const PagamentoIn = Type.Object({
  id_transacao: Type.String({ pattern: '^[!-~]{1,100}$', description: 'The bank\'s id of the transfer (a PIX end-to-end id, a TED number).' }),
  pago_em: Type.String({ format: 'date-time' }),
}, { additionalProperties: false })

export { MotivoIn }

export const TituloOut = Type.Object({
  id: Uuid, id_externo: OrNull(Type.String()), operacao_id: Uuid, cedente_id: Uuid, tipo: Type.String({ enum: [...TIPOS_TITULO] }), numero: Type.String(),
  sacado_id: Uuid, emissao: Type.String({ format: 'date' }), vencimento: Type.String({ format: 'date' }), valor_face_centavos: Int,
  chave_nfe: OrNull(Type.String()), estado: Type.String({ enum: [...ESTADOS_TITULO] }), saldo_centavos: Int,
  confirmacao_estado: Type.String({ enum: [...ESTADOS_CONFIRMACAO], description: 'Confirmation with the sacado: the last one\'s result '
    + '(pendente until one is started; em_andamento while a link waits for the answer).' }),
  registro_estado: Type.String({ enum: [...ESTADOS_REGISTRO], description: 'Its place in the registry of duplicatas escriturais: the last query '
    + '(livre, or impedido with registro_situacao), then its assignment to the customer (cessao_pendente, cedido, cessao_recusada), quitado, baixado.' }),
  registro_situacao: OrNull(Type.String({ description: 'What the registry said: cedida_a_terceiro, onerada, valor_divergente, titular_divergente, '
    + 'duplicata_desconhecida, or the code of a refusal.' })),
  criado_em: Instant,
  operacao_numero: Type.Optional(Type.Integer({ description: 'Its operation\'s number within the customer ("Operação nº 12"); in the títulos\' list.' })),
})

const Linha = Type.Object({
  titulo_id: Type.Optional(Uuid), vencimento: Type.String({ format: 'date' }), vencimento_util: Type.String({ format: 'date' }),
  dias_desconto: Int, dias_iof: Int, valor_face_centavos: Int, desagio_centavos: Int, ad_valorem_centavos: Int, tarifa_centavos: Int,
  iof_base_centavos: Int, iof_diario_centavos: Int, iof_adicional_centavos: Int, iof_centavos: Int, preco_compra_centavos: Int,
})

/** The priced borderô (produto.md §2.6): a quote's and a simulation's body. */
export const PricingOut = {
  data_operacao: Type.String({ format: 'date' }),
  perfil_iof: Type.String({
    description: 'The IOF profile applied: pj_simples becomes pj above R$ 30,000.00; isento when the product or the cedente owes none.',
  }),
  linhas: Type.Array(Linha, { description: 'One per título, in the order given.' }),
  totais: Type.Object({
    valor_face_centavos: Int, desagio_centavos: Int, ad_valorem_centavos: Int, tarifas_centavos: Int, tac_centavos: Int, iof_centavos: Int,
    compensacoes_centavos: Int, valor_liquido_centavos: Int,
  }),
  prazo_medio_dias: Type.String({ description: 'Σ(VF × n) / Σ VF, two decimals.' }),
  taxa_efetiva_mensal: OrNull(Type.String({
    description: 'The monthly r solving Σ VF / (1 + r)^(n/30) = valor líquido, six decimals, half up; null when no rate up to a million a month reaches it.',
  })),
  iof_aliquotas: Type.Array(Type.Object({
    perfil: Type.String(), vigencia_inicio: Type.String({ format: 'date' }), vigencia_fim: OrNull(Type.String({ format: 'date' })),
    taxa_diaria: Type.String(), taxa_adicional: Type.String(), fonte: Type.String(),
  }), { description: 'The IOF row priced with (none when exempt).' }),
  feriados: Type.Array(Type.Object({ data: Type.String({ format: 'date' }), descricao: Type.String() }),
    { description: 'The holidays that moved a due date.' }),
}

export const CotacaoOut = Type.Object({
  versao: Int,
  valida_ate: Type.String({ format: 'date-time', description: 'The end of data_operacao in Brasília: accepting after it is cotacao_expirada.' }),
  produto: Type.Object({ id: Uuid, versao: Int }),
  ...PricingOut,
  compensacoes: Type.Optional(Type.Array(Type.Object({ recompra_id: Uuid, valor_centavos: Int }), {
    description: 'The cedente\'s buy-backs this quote deducts from the net it pays (totais.compensacoes_centavos), oldest first; absent when none.',
  })),
  criado_em: Instant,
})

/** A person's (or a token's) name beside its id, in a payment's own answers (not in an operation's). */
const Nome = Type.Optional(OrNull(Type.String({ description: 'The name of the person (or token) the id beside names; in a payment\'s own answers.' })))

export const DesembolsoOut = Type.Object({
  id: Uuid, operacao_id: Uuid,
  operacao_numero: Type.Optional(Type.Integer({ description: 'The operation\'s number within the customer ("Operação nº 12"); in a payment\'s own answers.' })),
  cedente: Type.Optional(Type.Object({ razao_social: Type.String(), documento: Type.String() }, {
    description: 'Who is paid, by name and document; in a payment\'s own answers.' })),
  cedente_id: Uuid, valor_centavos: Int,
  conta_bancaria: Type.Object({
    banco: Type.String(), agencia: Type.String(), conta: Type.String(), digito: Type.String(), titular_documento: Type.String(),
    historico: Type.Optional(OrNull(Type.Object({
      confirmada: Type.Boolean(), incluida_em: Instant, incluida_por_usuario_id: OrNull(Uuid), confirmada_em: OrNull(Instant),
      confirmada_por_usuario_id: OrNull(Uuid), incluida_por_nome: Nome, confirmada_por_nome: Nome,
    }, { description: 'The account as the cedente has it now: when and by whom it was added and confirmed (what an approver checks); '
      + 'null when the cedente no longer has it. In the payment\'s own answers, not in an operation\'s.' }))),
  }),
  estado: Type.String({ enum: [...ESTADOS_DESEMBOLSO] }),
  solicitado_por: Type.Object({ tipo: Type.String({ enum: ['usuario', 'token'] }), id: Uuid, nome: Nome }),
  solicitante_usuario_id: OrNull(Uuid), solicitante_nome: Nome, aprovado_por_usuario_id: OrNull(Uuid), aprovado_em: OrNull(Instant), aprovado_por_nome: Nome,
  id_transacao: OrNull(Type.String()), pago_em: OrNull(Instant), motivo_falha: OrNull(Type.String()), criado_em: Instant, atualizado_em: Instant,
  recusa: OrNull(Type.Object({ motivo: Type.String(), por_usuario_id: Uuid, em: Instant, por_nome: Nome }, {
    description: 'The approver\'s refusal (estado recusado): its reason, who refused and when; null otherwise.',
  })),
})

const OperacaoBase = {
  id: Uuid, numero: Type.Integer({ description: 'The operation\'s number within the customer ("Operação nº 12"), 1, 2, 3…' }),
  id_externo: OrNull(Type.String()), cedente_id: Uuid, produto_id: Uuid, data_operacao: Type.String({ format: 'date' }),
  estado: Type.String({ enum: [...ESTADOS_OPERACAO] }), cotacao_versao: OrNull(Int), cotacao_aceita: OrNull(Int), aceita_em: OrNull(Instant),
  formalizacao: OrNull(Type.Object({
    termo_sha256: Type.String(), assinado_em: Instant, signatarios: Type.Array(Type.Object({ nome: Type.String(), documento: Type.String() })),
  })),
  cancelamento: OrNull(Type.Object({ motivo: Type.String(), em: Instant })),
  criado_em: Instant, atualizado_em: Instant,
}

/** An operation's read pages its títulos: a page of 5,000 would be megabytes (issue 31 item 9). */
export const TITULOS_PAGINA = 200

export const OperacaoOut = Type.Object({
  ...OperacaoBase,
  quantidade_titulos: Type.Integer({ description: 'All the operation\'s títulos, whatever the page.' }),
  valor_face_centavos: Type.Integer({ description: 'The face value of all of them.' }),
  titulos: Type.Array(TituloOut, { description: `A page of the títulos in the order they were added (${TITULOS_PAGINA} unless titulos_limite says).` }),
  titulos_proximo: OrNull(Type.Integer({ description: 'The next page: GET /api/operacoes/{id}?titulos_apos=<this>; null on the last.' })),
  cotacao: OrNull(Type.Object(CotacaoOut.properties, { description: 'The latest quote: its totals whole, its `linhas` those of this page\'s títulos.' })),
  desembolso: OrNull(DesembolsoOut),
  termo: Type.Optional(OrNull(Type.Object({
    sha256: Type.String(), tipo: Type.String(), nome_arquivo: OrNull(Type.String()), tamanho_bytes: Int, enviado_em: Instant,
  }, { description: 'The signed term\'s file sent (PUT /api/operacoes/{id}/termo; GET it there), or null.' }))),
})

export const OperacaoQuery = Type.Object({
  titulos_limite: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|1000)$', description: `1–1,000 títulos in the page, default ${TITULOS_PAGINA}.` })),
  titulos_apos: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$',
    description: 'How many títulos come before the page: the previous page\'s `titulos_proximo`.' })),
}, { additionalProperties: false })
/** The page the answers of changes carry. */
export const FIRST_PAGE = { limit: TITULOS_PAGINA }
/** The page of títulos a read names: the route's query (text) or the MCP tool's arguments (numbers). */
export const titlesPageOf = (q: { titulos_limite?: string | number, titulos_apos?: string | number }) => ({
  limit: Number(q.titulos_limite ?? TITULOS_PAGINA), ...(q.titulos_apos !== undefined ? { after: Number(q.titulos_apos) } : {}),
})

export const OperacaoResumo = Type.Object({ ...OperacaoBase, quantidade_titulos: Int, valor_face_centavos: Int })

/** An addition's answer: the operation's new totals and the títulos added, never the whole operation (issue 31 item 9). */
export const TitulosAdicionadosOut = Type.Object({
  operacao: OperacaoResumo, adicionados: Type.Array(TituloOut, { description: 'The títulos this request added, in the order sent.' }),
})

export { Centavos }

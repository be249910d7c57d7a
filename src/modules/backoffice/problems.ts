// What the API refused, in the back office's words: a sentence per catalogued code, and a 422's items per field
// (the form shows each beside its field; `loc[1]` is the body's field, as the API's docs tell integrators).

const CODES: Record<string, string> = {
  estado_invalido: 'A operação não está no estado que este passo pede: recarregue a página para ver o estado atual.',
  cotacao_desatualizada: 'Há uma cotação mais nova: aceite a última.',
  cotacao_expirada: 'A cotação venceu no fim do dia da operação: cote de novo.',
  limite_excedido: 'O aceite passaria o limite do cedente ou de um sacado.',
  cadastro_bloqueado: 'O cedente ou um sacado está bloqueado.',
  titulo_duplicado: 'Esta duplicata (chave de NF-e e número) já está numa operação viva.',
  operacao_antes_da_data: 'A operação está cotada para a data dela: aceite nesse dia.',
  pagamento_fora_da_data: 'O cedente é pago na data da operação, para a qual o dinheiro foi cotado: noutro dia, cancele e refaça a operação.',
  id_transacao_em_uso: 'Esta transferência já está registrada para outro desembolso.',
  aprovacao_pelo_mesmo_usuario: 'Quem pediu o desembolso não pode aprová-lo, nem quem incluiu uma conta bancária confirmá-la: outra pessoa o faz.',
  total_contabil_excedido: 'O razão passaria do maior total que se pode mostrar exatamente (2^53 − 1 centavos): a operação não pode ser lançada.',
  limite_de_titulos: 'A operação chegaria a mais títulos do que o limite por operação (OPERACAO_MAX_TITULOS): divida-a em outra operação.',
  conta_bancaria_nao_confirmada: 'A conta bancária do cedente foi incluída depois do cadastro e ainda não foi confirmada por uma segunda pessoa.',
  cotacao_inviavel: 'O preço de compra ou o valor líquido não seria positivo.',
  iof_sem_aliquota: 'A tabela de IOF não cobre a data desta operação.',
  documento_em_uso: 'A empresa já tem um cadastro com este documento.',
  id_externo_em_uso: 'A empresa já usou este identificador externo.',
  feriado_existente: 'A empresa já tem este feriado para este dia e lugar.',
  papel_insuficiente: 'O seu papel não permite este passo.',
  escopo_insuficiente: 'O seu papel não permite este passo.',
  nao_encontrado: 'Não encontrado: nada da sua empresa tem este identificador.',
  entrada_recusada: 'Um valor fere uma regra do cadastro.',
  chave_idempotencia_em_uso: 'Este formulário ainda está sendo processado: aguarde e recarregue a página.',
  chave_idempotencia_reutilizada: 'Este formulário já foi enviado com outros valores: recarregue a página e envie de novo.',
  limite_de_requisicoes: 'Muitas requisições em pouco tempo: aguarde um minuto.',
  requisicoes_simultaneas: 'Muitas requisições da sua empresa ao mesmo tempo: tente de novo em instantes.',
  assinatura_inativa: 'A assinatura da empresa está suspensa.',
}

const ITEM_TYPES: Record<string, string> = {
  missing: 'obrigatório',
  string_too_short: 'curto demais',
  string_too_long: 'longo demais',
  string_pattern_mismatch: 'formato inválido',
  date_from_datetime_parsing: 'data inválida',
  enum: 'opção inválida',
}

export type Refusal = { message: string, fields: Record<string, string> }

/** The refusal an API answer (status ≥ 400) carries, for the page that shows it. */
export function refusalOf(status: number, body: unknown): Refusal {
  const detail = (body as { detail?: unknown } | null)?.detail
  if (Array.isArray(detail)) {
    const fields: Record<string, string> = {}
    for (const item of detail as { loc?: unknown[], type?: string }[]) {
      const name = String(item.loc?.slice(1).join('.') ?? '')
      // An item on the body as a whole is a rule between fields (a holiday's one place, say).
      fields[name] ??= name === '' ? 'a combinação dos campos não é aceita: confira o formulário' : ITEM_TYPES[item.type ?? ''] ?? 'valor inválido'
    }
    return { message: 'Corrija os campos indicados.', fields }
  }
  const code = typeof detail === 'string' ? detail : ''
  return { message: CODES[code] ?? `O pedido foi recusado (${code || status}).`, fields: {} }
}

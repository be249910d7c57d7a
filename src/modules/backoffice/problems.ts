// What the API refused, in the back office's words: a sentence per catalogued code, and a 422's items per field
// (the form shows each beside its field; `loc[1]` is the body's field, as the API's docs tell integrators), each
// with its reason (refusal-reasons.ts).
import { instantLabel } from '../../platform/lib/brasilia-time.ts'
import { brl } from '../../platform/lib/brl.ts'
import { reasonOf, type RefusedItem } from './refusal-reasons.ts'
import { ESTADO_CONFIRMACAO_TEXTO, ESTADO_REGISTRO_TEXTO, inWords } from '../operations/index.ts'

const CODES: Record<string, string> = {
  estado_invalido: 'A operação não está no estado que este passo pede: recarregue a página para ver o estado atual.',
  cotacao_desatualizada: 'Há uma cotação mais nova: aceite a última.',
  cotacao_expirada: 'A cotação venceu no fim do dia da operação: cote de novo.',
  limite_excedido: 'O aceite passaria o limite do cedente ou de um sacado.',
  cadastro_bloqueado: 'O cedente ou um sacado está bloqueado.',
  titulo_com_verificacoes: 'Este título já tem confirmação com o sacado ou consulta ao registro, que ficam guardadas: ele não sai do rascunho. '
    + 'Para não comprá-lo, cancele a operação e monte outra sem ele.',
  titulos_nao_confirmados: 'O produto pede a confirmação de cada título com o sacado antes do aceite.',
  registro_impedido: 'O produto pede, antes do aceite, uma consulta livre ao registro de cada duplicata e, antes do pagamento, a cessão registrada.',
  titulo_duplicado: 'Esta duplicata (chave de NF-e e número) já está numa operação viva.',
  operacao_antes_da_data: 'A operação está cotada para a data dela: aceite nesse dia.',
  pagamento_fora_da_data: 'O cedente é pago na data da operação, para a qual o dinheiro foi cotado: noutro dia, cancele e refaça a operação.',
  id_transacao_em_uso: 'Esta transferência já está registrada (em outro desembolso ou outra recompra).',
  aprovacao_pelo_mesmo_usuario: 'Quem pediu o desembolso não pode aprová-lo, nem quem incluiu uma conta bancária ou de cobrança confirmá-la: '
    + 'outra pessoa o faz.',
  total_contabil_excedido: 'O razão passaria do maior total que se pode mostrar exatamente (2^53 − 1 centavos): a operação não pode ser lançada.',
  limite_de_titulos: 'A operação chegaria a mais títulos do que o limite por operação (OPERACAO_MAX_TITULOS): divida-a em outra operação.',
  conta_bancaria_nao_confirmada: 'A conta bancária do cedente foi incluída depois do cadastro e ainda não foi confirmada por uma segunda pessoa.',
  cotacao_inviavel: 'O preço de compra ou o valor líquido não seria positivo.',
  iof_sem_aliquota: 'A tabela de IOF não cobre a data desta operação.',
  documento_em_uso: 'A empresa já tem um cadastro com este documento.',
  id_externo_em_uso: 'A empresa já usou este identificador externo.',
  feriado_existente: 'A empresa já tem este feriado para este dia e lugar.',
  conta_cobranca_existente: 'A empresa já tem esta conta de cobrança (mesmo banco, agência, conta e carteira).',
  conta_cobranca_de_outro_cliente: 'Esta conta bancária é a conta de cobrança de outro cliente da plataforma: uma conta é de um só beneficiário. '
    + 'Se ela é da empresa, fale com o suporte.',
  titulo_nao_adquirido: 'Só se cobra um título adquirido, com saldo em aberto.',
  titulo_ja_cobrado: 'O título já tem uma cobrança viva (a registrar ou registrada).',
  conta_cobranca_nao_confirmada: 'A conta de cobrança ainda não foi confirmada por uma segunda pessoa.',
  conta_cobranca_inativa: 'A conta de cobrança está inativa: escolha outra.',
  nosso_numero_em_uso: 'Este nosso número já foi dado a outra cobrança desta conta.',
  cobranca_nao_registrada: 'Só se dá instrução a uma cobrança registrada no banco, e só se envia o boleto dela.',
  sacado_sem_email: 'O sacado não tem e-mail no cadastro: informe-o no cadastro do sacado (ou, para a confirmação, registre-a por telefone).',
  baixa_ja_pedida: 'A baixa desta cobrança já foi pedida: o banco não aceita outra instrução.',
  webhooks_no_limite: 'Este cliente já tem o máximo de webhooks ativos: exclua um antes de cadastrar outro.',
  boleto_enviado_recentemente: 'O boleto desta cobrança foi enviado ao sacado há menos de uma hora: ele não recebe o mesmo aviso de novo tão cedo.',
  nosso_numero_esgotado: 'A sequência de nosso número desta conta chegou ao limite de dígitos do banco: informe o nosso número da cobrança, '
    + 'ou inclua outra conta.',
  prorrogacao_pendente: 'Uma prorrogação desta cobrança espera a resposta do banco: peça outra depois que o banco a confirmar ou recusar.',
  protesto_nao_pedido: 'Não há protesto pedido nesta cobrança para sustar.',
  remessa_vazia: 'Nada a enviar ao banco nesta conta: nenhuma cobrança a registrar nem instrução pendente.',
  conta_cobranca_por_api: 'Esta conta de cobrança fala com o banco pela API: não gera arquivo de remessa.',
  empresa_sem_cnpj: 'O CNPJ da empresa não está cadastrado: a remessa ao banco, o link de confirmação ao sacado e o registro de duplicatas o '
    + 'exigem. Peça ao operador da plataforma que o cadastre.',
  recompra_sem_coobrigacao: 'Recompra por inadimplência só quando o produto tem coobrigação do cedente '
    + '(na faturização pura, o STJ a tem por nula: REsp 1.711.412/MG).',
  arquivo_cnab_recusado: 'O arquivo de retorno foi recusado inteiro: a linha indicada não segue o layout do banco; nada dele foi aplicado.',
  papel_insuficiente: 'O seu papel não permite este passo.',
  escopo_insuficiente: 'O seu papel não permite este passo.',
  nao_encontrado: 'Não encontrado: nada da sua empresa tem este identificador.',
  entrada_recusada: 'Um valor fere uma regra do cadastro.',
  chave_idempotencia_em_uso: 'Este formulário ainda está sendo processado: aguarde e recarregue a página.',
  chave_idempotencia_reutilizada: 'Este formulário já foi enviado com outros valores: recarregue a página e envie de novo.',
  limite_de_requisicoes: 'Muitas requisições em pouco tempo: aguarde um minuto.',
  requisicoes_simultaneas: 'Muitas requisições da sua empresa ao mesmo tempo: tente de novo em instantes.',
  assinatura_inativa: 'A assinatura da empresa está suspensa.',
  corpo_muito_grande: 'O arquivo passa do tamanho aceito: envie um arquivo menor (um PDF do termo assinado, sem imagens em alta resolução; '
    + 'um retorno de até 100.000 títulos).',
}

/** The codes about one field, with the field (the body's, as the forms name it) and the reason beside it. */
const CODE_FIELDS: Record<string, [string, string]> = {
  documento_em_uso: ['documento', 'a empresa já tem um cadastro com este documento'],
  feriado_existente: ['data', 'a empresa já tem este feriado neste dia e lugar'],
  id_transacao_em_uso: ['id_transacao', 'esta transferência já está registrada (em outro desembolso ou outra recompra)'],
  titulo_duplicado: ['chave_nfe', 'esta duplicata (chave da NF-e e número) já está numa operação viva'],
}

export type Refusal = { message: string, fields: Record<string, string> }

/** The refusal an API answer (status ≥ 400) carries, for the page that shows it. */
export function refusalOf(status: number, body: unknown): Refusal {
  const detail = (body as { detail?: unknown } | null)?.detail
  if (Array.isArray(detail)) {
    const fields: Record<string, string> = {}
    for (const item of detail as RefusedItem[]) {
      const name = String(item.loc?.slice(1).join('.') ?? '')
      const reason = reasonOf(item, name)
      // An item on the body as a whole is a rule between fields (a holiday's one place, say).
      fields[name] ??= name === '' && reason === 'valor inválido' ? 'a combinação dos campos não é aceita: confira o formulário' : reason
    }
    return { message: 'Corrija os campos indicados.', fields }
  }
  const code = typeof detail === 'string' ? detail : ''
  // A code that is about one field of the form is told beside it, as a 422's item is.
  const field = Object.hasOwn(CODE_FIELDS, code) ? CODE_FIELDS[code]! : undefined
  if (field) return { message: 'Corrija os campos indicados.', fields: { [field[0]]: field[1] } }
  if (code === 'limite_excedido') return { message: limitsTold(body), fields: {} }
  if (code === 'titulos_nao_confirmados') {
    return { message: titlesTold(body, code, 'Ainda sem confirmação', (t) => inWords(ESTADO_CONFIRMACAO_TEXTO, String(t.confirmacao_estado))), fields: {} }
  }
  if (code === 'registro_impedido') {
    return { message: titlesTold(body, code, 'Sem o registro pedido', (t) => inWords(ESTADO_REGISTRO_TEXTO, String(t.registro_estado))
      + (typeof t.registro_situacao === 'string' ? `: ${t.registro_situacao.replaceAll('_', ' ')}` : '')), fields: {} }
  }
  if (code === 'remessa_vazia') return { message: leftOutTold(body), fields: {} }
  if (code === 'boleto_enviado_recentemente') {
    const next = (body as { proximo_envio_em?: unknown } | null)?.proximo_envio_em
    if (typeof next === 'string' && !Number.isNaN(Date.parse(next))) {
      return { message: `${CODES[code]} Ele pode ser enviado de novo a partir de ${instantLabel(next)}.`, fields: {} }
    }
  }
  if (code === 'arquivo_cnab_recusado') {
    // The line and the reason the file was refused at (the parser's words, in Portuguese), beside the file's field.
    const { linha, motivo } = (body ?? {}) as { linha?: unknown, motivo?: unknown }
    return { message: CODES[code]!, fields: { arquivo: `recusado na linha ${String(linha ?? '?')}: ${String(motivo ?? 'fora do layout')}` } }
  }
  return { message: CODES[code] ?? `O pedido foi recusado (${code || status}).`, fields: {} }
}

const FORA: Record<string, string> = {
  sacado_sem_endereco: 'sacado sem endereço completo (logradouro, CEP, cidade e UF)', documento_alfanumerico: 'CNPJ alfanumérico, que o layout não leva',
  cobranca_nao_registrada: 'instrução de uma cobrança que o banco não tem', layout_recusou: 'o layout do banco recusou',
}

/** An empty remessa, and what was left out of it by why: "2 cobranças ficaram de fora: sacado sem endereço completo (2)". */
function leftOutTold(body: unknown): string {
  const fora = (body as { fora?: unknown } | null)?.fora
  if (!Array.isArray(fora) || !fora.length) return CODES.remessa_vazia!
  const by = new Map<string, number>()
  for (const f of fora as { motivo?: string }[]) by.set(f.motivo ?? '', (by.get(f.motivo ?? '') ?? 0) + 1)
  const why = [...by].map(([m, n]) => `${FORA[m] ?? m} (${n})`).join('; ')
  return `Nada foi enviado ao banco: ${fora.length === 1 ? '1 item ficou' : `${fora.length} itens ficaram`} de fora, por ${why}. `
    + 'Corrija o cadastro e gere a remessa de novo.'
}

/** Which títulos stop the acceptance, each with its state: "O produto pede … Ainda sem confirmação: nº 12 (em andamento), nº 13 (contestado)." */
function titlesTold(body: unknown, code: string, lead: string, state: (t: Record<string, unknown>) => string): string {
  const titulos = (body as { titulos?: unknown } | null)?.titulos
  if (!Array.isArray(titulos) || !titulos.length) return CODES[code]!
  const each = (titulos as Record<string, unknown>[]).slice(0, 20).map((t) => `nº ${String(t.numero ?? '?')} (${state(t)})`)
  return `${CODES[code]} ${lead}: ${each.join(', ')}${titulos.length > 20 ? ` e mais ${titulos.length - 20}` : ''}.`
}

type Breach = { tipo?: string, razao_social?: string, limite_centavos?: number, exposicao_centavos?: number, operacao_centavos?: number }

/** Which limit, and by how much: "o limite do sacado José (R$ 50.000,00): já usados R$ 15.000,50, esta operação R$ 40.000,00". */
function limitsTold(body: unknown): string {
  const limites = (body as { limites?: unknown } | null)?.limites
  if (!Array.isArray(limites) || !limites.length) return CODES.limite_excedido!
  const each = (limites as Breach[]).map((l) => {
    const whose = `${l.tipo === 'cedente' ? 'do cedente' : 'do sacado'}${l.razao_social ? ` ${l.razao_social}` : ''}`
    return `o limite ${whose} (${brl(l.limite_centavos ?? 0)}): já usados ${brl(l.exposicao_centavos ?? 0)}, esta operação ${brl(l.operacao_centavos ?? 0)}`
  })
  return `O aceite passaria ${each.join('; e ')}.`
}

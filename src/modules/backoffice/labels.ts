// The API's codes as a person reads them on screen: "duplicata de serviço", not `duplicata_servico`; a CNPJ with
// its dots and slash. One module, so that every page of the back office names a thing the same way. A code this
// list does not know (one a later release adds) is shown as it came, never hidden.
import { documentoFormatado as documentoFormatadoBr } from '../../platform/lib/documento-format.ts'
import { brasiliaDay, instantLabel } from '../../platform/lib/brasilia-time.ts'
import { dataBr } from '../../platform/lib/brl.ts'
import {
  ESTADO_COBRANCA_TEXTO, ESTADO_RECOMPRA_TEXTO, ESTADO_RETORNO_TEXTO, FORMA_RECOMPRA_TEXTO, MOTIVO_IGNORADA_TEXTO, MOTIVO_RECOMPRA_TEXTO, OCORRENCIA_TEXTO,
  RESULTADO_LINHA_TEXTO,
} from '../collections/index.ts'
import {
  ESTADO_CONFIRMACAO_TEXTO, ESTADO_REGISTRO_TEXTO, ESTADO_DESEMBOLSO_TEXTO, ESTADO_OPERACAO_TEXTO, ESTADO_TITULO_TEXTO, TIPO_TITULO_TEXTO,
} from '../operations/index.ts'

const label = (labels: Readonly<Record<string, string>>) => (code: string | null | undefined): string =>
  code === null || code === undefined ? '' : (Object.hasOwn(labels, code) ? labels[code]! : code)

export const tipoTitulo = label(TIPO_TITULO_TEXTO)

export const estadoOperacao = label(ESTADO_OPERACAO_TEXTO)

export const estadoTitulo = label(ESTADO_TITULO_TEXTO)

export const estadoConfirmacao = label(ESTADO_CONFIRMACAO_TEXTO)

/** A título's place in the registry, with why when impeded or refused ("impedido: cedida a terceiro"). */
export const estadoRegistro = (estado: string, situacao: string | null): string =>
  `${label(ESTADO_REGISTRO_TEXTO)(estado)}${situacao ? `: ${situacao.replaceAll('_', ' ')}` : ''}`

export const estadoDesembolso = label(ESTADO_DESEMBOLSO_TEXTO)

export const estadoCobranca = label(ESTADO_COBRANCA_TEXTO)

/** What a retorno's line says happened, in the service's vocabulary (the bank's own code is shown beside it). */
export const ocorrencia = label(OCORRENCIA_TEXTO)

export const resultadoLinha = label(RESULTADO_LINHA_TEXTO)

/** Why a retorno's line was kept without being applied. */
export const motivoIgnorada = label(MOTIVO_IGNORADA_TEXTO)

export const estadoRetorno = label(ESTADO_RETORNO_TEXTO)

export const ESTADOS_CADASTRO_TEXTO: Record<string, string> = { ativo: 'ativo', bloqueado: 'bloqueado' }
export const estadoCadastro = label(ESTADOS_CADASTRO_TEXTO)

export const perfilIof = label({
  pj: 'pessoa jurídica', pj_simples: 'PJ do Simples Nacional', pf: 'pessoa física', isento: 'isento de IOF',
})

export const tipoPessoa = label({ pf: 'pessoa física', pj: 'pessoa jurídica' })

export const PAPEIS_TEXTO: Record<string, string> = { administrador: 'administrador', operador: 'operador', aprovador: 'aprovador', consulta: 'consulta' }
export const papel = label(PAPEIS_TEXTO)

export const baseTaxa = label({ simples_30: 'simples, mês de 30 dias', composta_30: 'composta, dias corridos / 30' })

/** A product's IOF: computed by the cedente's profile, or exempt. */
export const iofProduto = label({ calcular: 'calculado pelo perfil do cedente', isento: 'isento' })

/** The kind of thing an audit row's action was done to, in a word (`sessao.criada` was done to a "sessão"). */
export const tipoAlvo = label({
  cliente: 'empresa', convite: 'convite', usuario: 'pessoa', login: 'entrada', sessao: 'sessão', token: 'token', cedente: 'cedente', sacado: 'sacado',
  feriado: 'feriado', produto: 'produto', operacao: 'operação', desembolso: 'desembolso', lancamento_manual: 'lançamento manual', mcp: 'MCP',
})

/** A select's options from codes in words, in the order given. */
export const opcoes = (texts: Record<string, string>): { value: string, label: string }[] =>
  Object.entries(texts).map(([value, text]) => ({ value, label: text }))

/** Cedentes, sacados or products by name as a person looks them up: "Água Viva" beside "Agropecuária", in pt-BR order. */
export function porNome<T>(list: readonly T[], name: (t: T) => string): T[] {
  return [...list].sort((a, b) => name(a).localeCompare(name(b), 'pt-BR'))
}

/**
 * "O mais recente", "os 2 mais recentes" (`feminino`: "a mais recente", "as 2 mais recentes"), capitalized when
 * it opens a sentence.
 */
export function maisRecentes(n: number, o: { feminino?: boolean, inicio?: boolean } = {}): string {
  const article = `${o.feminino ? 'a' : 'o'}${n === 1 ? '' : 's'}`
  const text = n === 1 ? `${article} mais recente` : `${article} ${n} mais recentes`
  return o.inicio ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text
}

export const abrangenciaFeriado = label({ nacional: 'nacional', estadual: 'estadual', municipal: 'municipal' })

/**
 * A CPF (000.000.000-00) or a CNPJ (00.000.000/0000-00, letters included: the alphanumeric CNPJ of 2026) with
 * its punctuation; anything of another length as it came.
 */
export function documentoFormatado(documento: string | null | undefined): string {
  if (!documento) return ''
  const formatted = documentoFormatadoBr(documento.replace(/[.\-/\s]/g, '').toUpperCase())
  return /[./-]/.test(formatted) ? formatted : documento
}

/** A `YYYY-MM-DD` day as dd/mm/aaaa; anything else as it came. */
export const data = (day: string | null | undefined): string => (day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? dataBr(day) : day ?? '')

/** An instant in Brasília time, "28/11/2026, 21:30:00": never UTC on a page. */
export const instante = (iso: string | Date | null | undefined): string => (iso ? instantLabel(iso) : '')


/**
 * Until when something holds: an instant on midnight in Brasília is the end of the day before ("até o fim de
 * 29/11/2026", not "até 30/11/2026, 00:00:00", which reads like the next day); any other as an instant.
 */
export function ate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso
  if (Number.isNaN(d.getTime())) return `até ${String(iso)}`
  const label = instantLabel(d)
  if (d.getUTCMilliseconds() === 0 && label.endsWith(' 00:00:00')) return `até o fim de ${dataBr(brasiliaDay(new Date(d.getTime() - 1)))}`
  return `até ${label}`
}
export const motivoRecompra = label(MOTIVO_RECOMPRA_TEXTO)
export const formaRecompra = label(FORMA_RECOMPRA_TEXTO)
export const estadoRecompra = label(ESTADO_RECOMPRA_TEXTO)

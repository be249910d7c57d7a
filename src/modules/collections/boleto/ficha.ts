// The boleto as printed (FEBRABAN's ficha de compensação, with the payer's receipt above it): one list of what it
// says, field by field, that the HTML and the PDF both draw, so the two never say different things. A boleto of an
// assigned título names the buyer (the customer) as beneficiário and the cedente as sacador/avalista: the sacado
// pays the buyer from now on.
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { documentoFormatado } from '../../../platform/lib/documento-format.ts'
import type { Banco } from './bancos.ts'

/** Each bank's code with its check digit, as the ficha's header prints it (the compensation's own register). */
export const BANCO_IMPRESSO: Record<Banco, string> = { '001': '001-9', '033': '033-7', '104': '104-0', '237': '237-2', '341': '341-7' }

export interface Parte { nome: string, documento: string, endereco?: string }

export interface DadosDoBoleto {
  banco: Banco
  bancoNome: string
  linhaDigitavel: string
  codigoDeBarras: string
  vencimento: string
  valorCentavos: number
  beneficiario: Parte
  /** Agência and código do beneficiário as the bank writes them ("0057 / 12345-7"). */
  agenciaCodigo: string
  nossoNumero: string
  numeroDocumento: string
  /** The título's type as the boleto's espécie: DM (duplicata mercantil), DS (de serviço)… */
  especieDocumento: string
  dataDocumento: string
  dataProcessamento: string
  carteira: string
  pagador: Parte
  sacadorAvalista?: Parte
  /** What the bank is told to do after the due date, as sentences ("Após 10/12/2026, multa de 2,00 %."). */
  instrucoes: readonly string[]
  /** The dynamic BR Code of the charge's cobv, when the bank made one. */
  pixCopiaECola?: string
  /** Printed above everything: outside production, that no bank registered the boleto and nobody should pay it. */
  aviso?: string
}

/** The warning a boleto made outside production carries (AMBIENTE is not `producao`: no real bank registered it). */
export const AVISO_SANDBOX = 'AMBIENTE DE TESTES (SANDBOX): nenhum banco registrou este boleto. Não o pague.'

export interface Campo { rotulo: string, valor: string, largura: number, direita?: boolean }

const LOCAL_DE_PAGAMENTO = 'Pagável em qualquer banco ou aplicativo até o vencimento; após, conforme as instruções.'

// A party whose document is not recorded (a customer provisioned without its CNPJ) says so, as the borderô does,
// rather than printing a label with nothing after it.
const parte = (p: Parte) => (p.documento
  ? `${p.nome} — ${p.documento.length === 11 ? 'CPF' : 'CNPJ'} ${documentoFormatado(p.documento)}`
  : `${p.nome} — CNPJ não cadastrado`)

/** The ficha's boxes, row by row (widths in twelfths of the row), as FEBRABAN lays them out. */
export function linhasDaFicha(d: DadosDoBoleto): Campo[][] {
  return [
    [
      { rotulo: 'Local de pagamento', valor: LOCAL_DE_PAGAMENTO, largura: 9 },
      { rotulo: 'Vencimento', valor: dataBr(d.vencimento), largura: 3, direita: true },
    ],
    [
      { rotulo: 'Beneficiário', valor: parte(d.beneficiario), largura: 9 },
      { rotulo: 'Agência / Código do beneficiário', valor: d.agenciaCodigo, largura: 3, direita: true },
    ],
    [
      { rotulo: 'Data do documento', valor: dataBr(d.dataDocumento), largura: 2 },
      { rotulo: 'Nº do documento', valor: d.numeroDocumento, largura: 3 },
      { rotulo: 'Espécie doc.', valor: d.especieDocumento, largura: 1 },
      { rotulo: 'Aceite', valor: 'N', largura: 1 },
      { rotulo: 'Data do processamento', valor: dataBr(d.dataProcessamento), largura: 2 },
      { rotulo: 'Nosso número', valor: d.nossoNumero, largura: 3, direita: true },
    ],
    [
      { rotulo: 'Uso do banco', valor: '', largura: 2 },
      { rotulo: 'Carteira', valor: d.carteira, largura: 2 },
      { rotulo: 'Espécie', valor: 'R$', largura: 1 },
      { rotulo: 'Quantidade', valor: '', largura: 2 },
      { rotulo: 'Valor', valor: '', largura: 2 },
      { rotulo: '(=) Valor do documento', valor: brl(d.valorCentavos), largura: 3, direita: true },
    ],
  ]
}

/** The boxes beside the instructions, which the cashier fills in. */
export const DEDUCOES = ['(−) Desconto / Abatimento', '(−) Outras deduções', '(+) Mora / Multa', '(+) Outros acréscimos', '(=) Valor cobrado'] as const

export const pagadorImpresso = (d: DadosDoBoleto): string[] => [parte(d.pagador), ...(d.pagador.endereco ? [d.pagador.endereco] : [])]
export const sacadorImpresso = (d: DadosDoBoleto): string => (d.sacadorAvalista ? parte(d.sacadorAvalista) : '')

/** The title a reader or a screen reader is given. */
export const tituloDoBoleto = (d: DadosDoBoleto): string =>
  `Boleto ${d.bancoNome} — ${d.numeroDocumento} — vencimento ${dataBr(d.vencimento)} — ${brl(d.valorCentavos)}`

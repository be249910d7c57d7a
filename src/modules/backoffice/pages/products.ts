// The pricing terms: each product with its latest version's terms, and the form that creates one.
import { html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { Decimal } from 'decimal.js'
import type { Page } from '../../account/index.ts'
import type { Product } from '../answers.ts'
import { form, input, select } from '../forms.ts'
import { baseTaxa, iofProduto } from '../labels.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

/** A fraction from the API ("0.035") as a percentage ("3,5 %"), in decimal. */
export const percent = (fraction: string) => `${new Decimal(fraction).mul(100).toFixed().replace('.', ',')} %`

export function productsPage(v: ViewContext, produtos: Product[]): Page {
  const rows = produtos.map((p) => {
    const t = p.versoes[0]!
    return html`<tr data-produto="${p.id}"><th scope="row">${p.nome}</th>${cell('Versão', p.versao)}${cell('Base', baseTaxa(t.base))}\
${cell('Taxa mensal', percent(t.taxa_mensal))}${cell('Ad valorem', percent(t.taxa_ad_valorem))}${cell('Tarifa por título', brl(t.tarifa_por_titulo_centavos))}\
${cell('Tarifa de cadastro', brl(t.tac_centavos))}${cell('IOF', iofProduto(t.iof))}</tr>`
  })
  const id = 'form-produto'
  return boPage(BACKOFFICE_PATHS.produtos, 'Produtos', 'As condições de preço da empresa, versionadas: cada cotação usa a última versão.', v.shown, html`
${table('produtos', `Produtos (${produtos.length})`, ['Nome', 'Versão', 'Base', 'Taxa mensal', 'Ad valorem', 'Tarifa por título',
  'Tarifa de cadastro', 'IOF'], rows,
    'Nenhum produto ainda.')}
${mayChange(v, 'cadastro') && html`<h2 id="titulo-novo">Criar um produto</h2>
${form({ id, action: BACKOFFICE_PATHS.produtos, csrf: v.csrf, button: 'Criar produto', buttonId: 'criar-produto' }, html`
${input(v.posted, id, { name: 'nome', label: 'Nome', required: true })}
${select(v.posted, id, { name: 'base', label: 'Base de cálculo', options: [
      { value: 'simples_30', label: 'Simples, mês de 30 dias' }, { value: 'composta_30', label: 'Composta, dias corridos / 30' }] })}
${input(v.posted, id, { name: 'taxa_mensal', label: 'Taxa mensal (%)', required: true, hint: 'Como 3,5.', extra: html` inputmode="decimal"` })}
${input(v.posted, id, { name: 'taxa_ad_valorem', label: 'Ad valorem (%)',
  hint: 'Sobre o valor de face, como 0,3. Em branco: zero.', extra: html` inputmode="decimal"` })}
${input(v.posted, id, { name: 'tarifa', label: 'Tarifa por título (R$)', errorKey: 'tarifa_por_titulo_centavos', extra: html` inputmode="decimal"` })}
${input(v.posted, id, { name: 'tac', label: 'Tarifa de cadastro (R$)', errorKey: 'tac_centavos', extra: html` inputmode="decimal"` })}
${input(v.posted, id, { name: 'dias_float', label: 'Dias de float', hint: 'De 0 a 10, para todos os tipos de título.', extra: html` inputmode="numeric"` })}
${select(v.posted, id, {
    name: 'iof', label: 'IOF', options: [{ value: 'calcular', label: 'Calcular' }, { value: 'isento', label: 'Isento (diga o motivo)' }],
  })}
${input(v.posted, id, { name: 'motivo_isencao', label: 'Motivo da isenção de IOF' })}
`)}`}`)
}

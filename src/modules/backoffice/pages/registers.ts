// Cedentes and sacados: the list (limit and exposure from the API), and the form that registers one. A
// cedente's page is its conta gráfica (pages/ledger.ts).
import { html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { NO_AUTOCORRECT } from '../../account/index.ts'
import type { Page } from '../../account/index.ts'
import { MOTIVOS_ISENCAO } from '../../origination/index.ts'
import type { Party } from '../answers.ts'
import { form, input, select } from '../forms.ts'
import { documentoFormatado, ESTADOS_CADASTRO_TEXTO, estadoCadastro, opcoes } from '../labels.ts'
import { boPage, cell } from '../layout.ts'
import { listBlock, numCell } from '../list-controls.ts'
import type { Listed, ListState } from '../list-query.ts'
import { LIST_SPECS } from '../list-specs.ts'
import { BACKOFFICE_PATHS } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export const PERFIS_IOF = [
  { value: 'pj', label: 'Pessoa jurídica (CNPJ)' }, { value: 'pj_simples', label: 'PJ do Simples Nacional (CNPJ, com a declaração)' },
  { value: 'pf', label: 'Pessoa física (CPF)' }, { value: 'isento', label: 'Isento (escolha o motivo)' },
] as const

/** An exemption's reasons as the API takes them, each with its legal basis; the first option sends none. */
const MOTIVOS = [
  { value: '', label: 'Nenhum (só com o perfil isento)' },
  ...MOTIVOS_ISENCAO.map((m) => ({ value: m.codigo, label: `${m.rotulo} — ${m.base}` })),
]

export type RegisterKind = 'cedentes' | 'sacados'

const TEXT = {
  cedentes: { title: 'Cedentes', one: 'cedente', description: 'Quem cede os títulos: cadastro, limite, exposição e conta gráfica.' },
  sacados: { title: 'Sacados', one: 'sacado', description: 'Quem paga os títulos: cadastro, limite e exposição.' },
}

export function registersPage(kind: RegisterKind, v: ViewContext, list: Listed<Party>, state: ListState): Page {
  const t = TEXT[kind]
  const rows = list.itens.map((p) => html`<tr data-id="${p.id}">\
<th scope="row">${kind === 'cedentes' ? html`<a href="${BACKOFFICE_PATHS.cedente(p.id)}">${p.razao_social}</a>` : p.razao_social}</th>\
${cell('Documento', documentoFormatado(p.documento))}${numCell('Limite', p.limite_centavos === null ? 'sem limite' : brl(p.limite_centavos))}\
${numCell('Exposição', brl(p.exposicao_centavos))}${cell('Situação', estadoCadastro(p.estado))}</tr>`)
  const listed = listBlock({
    path: BACKOFFICE_PATHS[kind], spec: LIST_SPECS[kind], state, id: kind, caption: `${t.title} da empresa (${list.total})`, rows, total: list.total,
    columns: [{ label: 'Razão social', ordem: 'razao_social' }, { label: 'Documento', ordem: 'documento' }, { label: 'Limite', num: true },
      { label: 'Exposição', num: true }, { label: 'Situação' }],
    empty: state.busca || state.values.size ? `Nenhum ${t.one} com estes filtros.` : `Nenhum ${t.one} cadastrado ainda.`,
    options: { estado: opcoes(ESTADOS_CADASTRO_TEXTO) },
    searchHint: 'Razão social, nome fantasia, CPF ou CNPJ (com ou sem pontuação), ID externo.',
  })
  const formId = `form-${t.one}`
  const canChange = mayChange(v, 'cadastro')
  return boPage(BACKOFFICE_PATHS[kind], t.title, t.description, v.shown, html`
${listed}
${canChange && html`<h2 id="titulo-novo">Cadastrar um ${t.one}</h2>
${form({ id: formId, action: BACKOFFICE_PATHS[kind], csrf: v.csrf, button: `Cadastrar ${t.one}`, buttonId: `cadastrar-${t.one}` }, html`
${input(v.posted, formId, { name: 'documento', label: 'CPF ou CNPJ', required: true,
  hint: 'Com ou sem pontuação; o CNPJ alfanumérico também.', extra: NO_AUTOCORRECT })}
${input(v.posted, formId, { name: 'razao_social', label: 'Razão social ou nome', required: true })}
${input(v.posted, formId, { name: 'limite', label: 'Limite (R$)', hint: 'Em reais, como 250.000,00. Em branco: sem limite.', errorKey: 'limite_centavos',
      extra: html` inputmode="decimal"` })}
${input(v.posted, formId, { name: 'municipio_ibge', label: 'Município (código IBGE)', hint: '7 dígitos: os feriados do município valem nos vencimentos.',
      extra: html` inputmode="numeric"` })}
${input(v.posted, formId, { name: 'uf', label: 'UF', hint: 'Duas letras, como SP.', extra: html` maxlength="2"` })}
${kind === 'cedentes' && html`
${select(v.posted, formId, { name: 'perfil_iof', label: 'Perfil de IOF', options: PERFIS_IOF, value: 'pj' })}
${select(v.posted, formId, { name: 'motivo_isencao', label: 'Motivo da isenção de IOF', options: MOTIVOS, value: '' })}
<fieldset><legend>Declaração de optante do Simples Nacional (só com o perfil PJ do Simples Nacional)</legend>
${input(v.posted, formId, { name: 'simples_data', label: 'Data da declaração', type: 'date', errorKey: 'declaracao_simples.data',
      hint: 'O dia em que o cedente declarou ser optante, como 2026-10-05; não depois de hoje.' })}
${input(v.posted, formId, { name: 'simples_sha256', label: 'SHA-256 da declaração assinada', errorKey: 'declaracao_simples.sha256',
      hint: '64 caracteres hexadecimais: o resumo do documento assinado.', extra: html` maxlength="64"${NO_AUTOCORRECT}` })}
</fieldset>
<fieldset><legend>Conta para o desembolso</legend>
${input(v.posted, formId, { name: 'banco', label: 'Banco (código COMPE)', errorKey: 'contas_bancarias.0.banco', extra: html` inputmode="numeric"` })}
${input(v.posted, formId, { name: 'agencia', label: 'Agência', errorKey: 'contas_bancarias.0.agencia', extra: html` inputmode="numeric"` })}
${input(v.posted, formId, { name: 'conta', label: 'Conta', errorKey: 'contas_bancarias.0.conta', extra: html` inputmode="numeric"` })}
${input(v.posted, formId, { name: 'digito', label: 'Dígito', errorKey: 'contas_bancarias.0.digito' })}
</fieldset>`}
${kind === 'sacados' && html`<fieldset><legend>Endereço (a remessa CNAB o imprime; sem logradouro, CEP e cidade a cobrança fica fora dela)</legend>
${input(v.posted, formId, { name: 'logradouro', label: 'Logradouro', hint: 'Rua, avenida…' })}
${input(v.posted, formId, { name: 'numero', label: 'Número' })}
${input(v.posted, formId, { name: 'complemento', label: 'Complemento' })}
${input(v.posted, formId, { name: 'bairro', label: 'Bairro' })}
${input(v.posted, formId, { name: 'cep', label: 'CEP', hint: 'Com ou sem hífen, como 13010-000.', extra: html` inputmode="numeric" maxlength="9"` })}
${input(v.posted, formId, { name: 'cidade', label: 'Cidade' })}
</fieldset>`}
`)}`}`)
}

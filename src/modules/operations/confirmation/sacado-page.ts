// The sacado's page (/confirmacao/{token}): that título only, as the notice of its assignment (Código Civil art. 290),
// with "confirmo" and "contesto" and a reason. A plain form: it works without JavaScript, as any e-mail client's
// browser opens it. The words are for a debtor's accounts payable, not for the factoring's people.
import { brl } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import { documentoFormatado } from '../../../platform/lib/documento-format.ts'
import { html, type Html } from '../../../platform/lib/html.ts'
import { errorSummary, type Page } from '../../account/index.ts'
import { capitalized, inWords, TIPO_TITULO_TEXTO } from '../labels.ts'

export type LinkTitle = {
  tipo: string, numero: string, emissao: string, vencimento: string, valor_face_centavos: string, cedente_razao_social: string,
  cedente_documento: string, sacado_razao_social: string, cessionario_razao_social: string, cessionario_documento: string | null, expira_em: Date,
  /** Bought already: the page is the notice of the assignment; offered only, it asks before the purchase and notifies nothing. */
  adquirido: boolean,
}

export type Answer = { resposta: string, motivo: string }
export type AnswerErrors = { resposta?: string, motivo?: string }

export const MOTIVO_MAX = 2000

const day = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`
const withDoc = (name: string, doc: string | null) => (doc ? `${name} (${documentoFormatado(doc)})` : name)

function invalid(error: string | undefined): Html | false {
  return Boolean(error) && html` aria-invalid="true"`
}

export function confirmationPage(t: LinkTitle, action: string, values: Answer = { resposta: '', motivo: '' }, errors: AnswerErrors = {}): Page {
  const buyer = withDoc(t.cessionario_razao_social, t.cessionario_documento)
  const choice = (value: string, label: string) => html`<div><input type="radio" id="resposta-${value}" name="resposta" value="${value}"\
 required aria-describedby="erro-resposta"${values.resposta === value && html` checked`}${invalid(errors.resposta)}>\
 <label for="resposta-${value}">${label}</label></div>`
  return {
    title: `Confirmação do título nº ${t.numero}`,
    description: 'Confirme ou conteste um título cedido.',
    body: html`<h1>Confirmação do título nº ${t.numero}</h1>
${errorSummary(Object.values(errors).filter((e): e is string => Boolean(e)))}
${t.adquirido ? html`<p>${withDoc(t.cedente_razao_social, t.cedente_documento)} cedeu a ${buyer} o título abaixo, de que ${t.sacado_razao_social} \
consta como devedora.</p>
<p><strong>Notificação da cessão (Código Civil, art. 290):</strong> a partir desta notificação, o pagamento deste título é devido a ${buyer}.</p>`
  : html`<p>${withDoc(t.cedente_razao_social, t.cedente_documento)} ofereceu a ${buyer} a cessão do título abaixo, de que ${t.sacado_razao_social} \
consta como devedora. Antes de comprá-lo, ${buyer} pede que a empresa confirme que ele é devido.</p>
<p>Até ser notificada da cessão, a empresa continua a pagar o título como combinado com ${t.cedente_razao_social}.</p>`}
<dl class="dados" id="titulo">
<dt>Título</dt><dd>${capitalized(inWords(TIPO_TITULO_TEXTO, t.tipo))} nº ${t.numero}</dd>
<dt>Emitente (cedente)</dt><dd>${withDoc(t.cedente_razao_social, t.cedente_documento)}</dd>
<dt>Devedor (sacado)</dt><dd>${t.sacado_razao_social}</dd>
<dt>Emissão</dt><dd>${day(t.emissao)}</dd>
<dt>Vencimento</dt><dd>${day(t.vencimento)}</dd>
<dt>Valor</dt><dd>${brl(BigInt(t.valor_face_centavos))}</dd>
${t.adquirido ? html`<dt>Pagar a partir de agora a</dt><dd>${buyer}</dd>` : html`<dt>Oferecido em cessão a</dt><dd>${buyer}</dd>`}
</dl>
<form id="form-confirmacao" method="post" action="${action}">
<fieldset class="campo">
<legend>A empresa reconhece este título? <span class="obrigatorio">(obrigatório)</span></legend>
${choice('confirmo', 'Confirmo: o título é devido, neste valor e vencimento.')}
${choice('contesto', 'Contesto: o título não é devido como está (informe o motivo).')}
<p class="erro" id="erro-resposta">${errors.resposta}</p>
</fieldset>
<div class="campo">
<label for="campo-motivo">Motivo <span class="dica" id="dica-motivo">(obrigatório para contestar)</span></label>
<textarea id="campo-motivo" name="motivo" rows="5" maxlength="${MOTIVO_MAX}" aria-describedby="dica-motivo erro-motivo"${invalid(errors.motivo)}>\
${values.motivo}</textarea>
<p class="erro" id="erro-motivo">${errors.motivo}</p>
</div>
<p><button type="submit" id="responder">Enviar resposta</button></p>
</form>
<p>Este link vale uma só resposta, até ${instantLabel(t.expira_em)} (horário de Brasília).</p>`,
  }
}

export function answeredPage(resposta: 'confirmado' | 'contestado'): Page {
  const text = resposta === 'confirmado'
    ? 'Obrigado. A confirmação do título foi registrada e já está com quem a pediu.'
    : 'Obrigado. A contestação do título, com o motivo informado, foi registrada e já está com quem a pediu.'
  return { title: 'Resposta registrada', description: text, body: html`<h1>Resposta registrada</h1>\n<p>${text}</p>` }
}

/** One page for an unknown, used, superseded or expired link: which of them it is, is nobody's business but the buyer's. */
export const INVALID_LINK: Page = {
  title: 'Link de confirmação inválido',
  description: 'Este link de confirmação não pode ser usado.',
  body: html`<h1>Link de confirmação inválido</h1>
<p>Este link não pode ser usado: ele pode já ter sido respondido, ter vencido ou ter sido substituído por outro mais novo.</p>
<p>Se a empresa precisa responder sobre um título, fale com quem enviou a mensagem.</p>`,
}

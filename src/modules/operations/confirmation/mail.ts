// The e-mail that carries the sacado's link: it is also the notice of the assignment (Código Civil art. 290), so it
// names the título, the cedente who assigned it and the buyer to pay from now on. Plain text: a debtor's accounts
// payable reads it in any client, and nothing in it can be taken for a tracking image.
import { brl } from '../../../platform/lib/brl.ts'
import { documentoFormatado } from '../../../platform/lib/documento-format.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { RenderedMail } from '../../../platform/outbox/enqueue.ts'
import { inWords, TIPO_TITULO_TEXTO } from '../labels.ts'

export type LinkMail = {
  link: string, expiraEm: Date, numero: string, tipo: string, valorFaceCentavos: bigint, vencimento: string, cedente: string, sacado: string,
  cessionario: { nome: string, documento: string | null },
  /** Bought already: the message is the notice of the assignment; offered only, it asks before the purchase. */
  adquirido: boolean,
}

const day = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`

export function renderLinkMail(m: LinkMail): RenderedMail {
  const buyer = `${m.cessionario.nome}${m.cessionario.documento ? ` (CNPJ ${documentoFormatado(m.cessionario.documento)})` : ''}`
  const about = m.adquirido
    ? [`${m.cedente} cedeu a ${buyer} o título abaixo, de que a empresa consta como devedora:`]
    : [`${m.cedente} ofereceu a ${buyer} a cessão do título abaixo, de que a empresa consta como devedora.`,
      `Antes de comprá-lo, ${m.cessionario.nome} pede que a empresa confirme que ele é devido:`]
  const notice = m.adquirido
    ? `Esta mensagem é a notificação da cessão (Código Civil, art. 290): a partir dela, o pagamento deste título é devido a ${m.cessionario.nome}.`
    : `Esta mensagem não é a notificação da cessão: até recebê-la, a empresa continua a pagar o título como combinado com ${m.cedente}.`
  return {
    subject: `Confirmação do título nº ${m.numero} ${m.adquirido ? 'cedido' : 'oferecido em cessão'} por ${m.cedente}`,
    text: [
      `Prezados (${m.sacado}),`,
      '',
      ...about,
      '',
      `  ${inWords(TIPO_TITULO_TEXTO, m.tipo)} nº ${m.numero}`,
      `  Valor: ${brl(m.valorFaceCentavos)}`,
      `  Vencimento: ${day(m.vencimento)}`,
      '',
      notice,
      '',
      'Pedimos que confirme se o título é devido, ou que o conteste com o motivo, nesta página:',
      m.link,
      '',
      `O link vale uma só resposta, até ${instantLabel(m.expiraEm)} (horário de Brasília).`,
      'Se a empresa não reconhece esta cobrança, use a página para contestá-la; não responda a este e-mail.',
    ].join('\n'),
  }
}

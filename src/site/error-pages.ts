// What the site's error page says for each status it answers as a page: a title and an explanation, in the
// visitor's words.
import { UNAVAILABLE } from './format.ts'

const ERRORS: Record<number, [string, string]> = {
  400: ['Requisição inválida', 'O pedido não pôde ser entendido.'],
  403: ['Envio recusado', 'O formulário só pode ser enviado a partir deste site.'],
  405: ['Método não permitido', 'Esta página não aceita este método.'],
  413: ['Envio grande demais', 'O conteúdo enviado passa do tamanho aceito. Encurte a mensagem e envie de novo.'],
  415: ['Formato não aceito', 'Envie o formulário como application/x-www-form-urlencoded, ou use a API com JSON.'],
  422: ['Envio ilegível', 'O conteúdo enviado não pôde ser lido. Preencha o formulário e envie de novo.'],
  429: ['Muitas requisições', 'Foram feitos pedidos demais em pouco tempo. Aguarde e tente de novo.'],
  500: ['Erro interno', 'Algo deu errado do nosso lado. Tente de novo em instantes; se persistir, veja a página de status.'],
  503: ['Serviço indisponível', UNAVAILABLE],
}

// Errors answered with their own status; any other is a 400 (the client's fault) or a 500 (ours).
const SHOWN_AS_IS = new Set([403, 413, 415, 422, 429, 503])

/** The status an error raised on a site path is answered with. */
export function pageStatus(status: number): number {
  if (SHOWN_AS_IS.has(status)) return status
  return status >= 500 ? 500 : 400
}

export function errorText(status: number): { titulo: string, explicacao: string } {
  const [titulo, explicacao] = ERRORS[status] ?? ERRORS[500]!
  return { titulo, explicacao }
}

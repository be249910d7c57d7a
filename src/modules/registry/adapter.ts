// The registradora as the service sees it (issue 34; Lei 13.775/2018, art. 3 and 6: a duplicata escritural is issued
// through an escriturador, and its assignment, its liens, its payment and its write-off are registered there). No
// registradora publishes an open API: a real one's client implements this interface against its own contract, and the
// sandbox registradora (sandbox-server.ts) answers it over HTTP (http-adapter.ts) meanwhile.
//
// What a real registradora's client must do to implement it:
// - `enviar`: send one request (a query of the duplicata, the registration of its assignment to the buyer, its payment,
//   its write-off), named by the service's id for it: the same id again answers the first answer (a retry after a lost
//   answer must never register a second assignment). The registradora answers at once (`concluido`, with its result),
//   or takes the request under its own protocol (`processando`), whose result the service reads back with `situacao`
//   when the registradora calls back or when its next poll comes due.
// - `situacao`: the request of `protocolo` as the registradora holds it now.
// - A failure that may pass (timeout, 5xx, refused connection) is `indisponivel`: the service asks again later, the same
//   request under the same id; a refusal (`recusada`) is final and names the registradora's reason.
// - Every answer keeps the registradora's own body (`resposta`), which the service mirrors per título.

export type TipoPedido = 'consulta' | 'cessao' | 'pagamento' | 'baixa'

export interface Duplicata {
  /** The título's number as issued (the escriturador's key, with the issuer's document). */
  numero: string
  chaveNfe: string | null
  emissao: string
  vencimento: string
  valorCentavos: bigint
  /** The issuer (the cedente) and the debtor (the sacado), by document. */
  sacador: string
  sacado: string
}

export interface PedidoRegistro {
  /** The service's id for the request: the registradora's key for repeats. */
  id: string
  tipo: TipoPedido
  duplicata: Duplicata
  /** The buyer: the customer, by its CNPJ and name. */
  cessionario: { documento: string, nome: string }
}

/** What a query found: who holds the duplicata, to whom it is assigned, its liens and the value it is registered for. */
export interface Consulta {
  titular: string
  cessionario: string | null
  onus: { tipo: string, credor: string }[]
  valorCentavos: bigint
  /** `ativa`, or what ended it (`paga`, `baixada`): only an active duplicata is bought. */
  situacao: string
}

/** `reenviar`: the registradora does not know the request's protocol any more: send the request again, under its id. */
export type Falha = { ok: false, tipo: 'indisponivel', motivo: string, reenviar?: boolean }
  | { ok: false, tipo: 'recusada', codigo: string, motivo: string, resposta: unknown }

export type Resposta =
  | { ok: true, situacao: 'processando', protocolo: string, resposta: unknown }
  | { ok: true, situacao: 'concluido', protocolo: string, consulta?: Consulta, resposta: unknown }
  | Falha

export interface RegistradoraAdapter {
  enviar(p: PedidoRegistro): Promise<Resposta>
  situacao(protocolo: string): Promise<Resposta>
}

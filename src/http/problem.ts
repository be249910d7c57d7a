// Every error body is JSON with a stable `detail` code; clients read the code, not prose.
export type DetailCode =
  | 'nao_autenticado' | 'nao_encontrado' | 'metodo_nao_permitido' | 'corpo_muito_grande'
  | 'limite_de_requisicoes' | 'banco_indisponivel' | 'servico_indisponivel' | 'erro_interno'
  | 'requisicao_invalida' | 'nao_aceitavel' | 'tempo_esgotado' | 'cabecalho_muito_grande'

/** An error that answers `statusCode` with `{"detail": code}` and these headers. */
export class HttpProblem extends Error {
  constructor(readonly statusCode: number, readonly detail: DetailCode, readonly headers: Record<string, string> = {}) {
    super(detail)
  }
}

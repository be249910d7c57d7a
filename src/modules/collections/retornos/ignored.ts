// Why a retorno's line was kept without being applied (issue 33: "a line whose nosso número the service does not know
// is listed as ignored, with why"): stable codes, in the line's `motivo`, each with what the back office says of it.
export const IGNORADA = {
  nosso_numero_desconhecido: 'nenhuma cobrança desta conta tem este nosso número',
  ja_aplicada: 'a mesma ocorrência (nosso número, código e data) já foi aplicada',
  sem_liquidacao: 'um estorno ou cheque devolvido sem liquidação aplicada a desfazer',
  estado_da_cobranca: 'a ocorrência não cabe no estado em que a cobrança está',
  valores_inconsistentes: 'os valores da linha não formam um pagamento desta cobrança',
  data_fora_do_periodo: 'a data da linha é anterior à cobrança ou distante no futuro',
  erro_interno: 'a linha não pôde ser aplicada por um erro do serviço; nada dela foi lançado',
} as const

export type MotivoIgnorada = keyof typeof IGNORADA
export const MOTIVOS_IGNORADA = Object.keys(IGNORADA) as MotivoIgnorada[]

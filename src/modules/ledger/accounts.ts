// The chart of accounts the service keeps for every customer (produto.md §2.7), in its order: as migration 0020
// inserts the first seven, 0033 the three that record where the money comes from and what the bank takes, 0037
// the income the deságio becomes day by day, and 0039 what a collection moves (late charges, discounts, money whose
// título is not known).
export const CONTAS = [
  'banco', 'direitos_creditorios', 'conta_grafica_cedentes', 'iof_a_recolher', 'desagio_a_apropriar', 'receita_ad_valorem', 'receita_tarifas',
  'capital_social', 'emprestimos_financiamentos', 'despesas_bancarias', 'receita_desagio', 'receita_juros_multa', 'descontos_concedidos',
  'valores_a_identificar',
] as const
export type Conta = (typeof CONTAS)[number]

export const isConta = (value: unknown): value is Conta => (CONTAS as readonly unknown[]).includes(value)

/** The sub-ledgers of operations (a cedente's statement, the títulos' balances): moved by operations and payments, never by hand. */
export const CONTAS_DE_OPERACOES = ['conta_grafica_cedentes', 'direitos_creditorios'] as const satisfies readonly Conta[]

/** The accounts a manual entry may move (migration 0033 refuses the others). */
export const CONTAS_MANUAIS = CONTAS.filter((c) => !(CONTAS_DE_OPERACOES as readonly string[]).includes(c))

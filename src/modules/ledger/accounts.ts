// The chart of accounts the service keeps for every customer (produto.md §2.7), as migration 0020 inserts it.
export const CONTAS = [
  'banco', 'direitos_creditorios', 'conta_grafica_cedentes', 'iof_a_recolher', 'desagio_a_apropriar', 'receita_ad_valorem', 'receita_tarifas',
] as const
export type Conta = (typeof CONTAS)[number]

export const isConta = (value: unknown): value is Conta => (CONTAS as readonly unknown[]).includes(value)

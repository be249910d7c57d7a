// What makes a ledger entry (its `origem_tipo`, the CHECK of migrations 0020 → 0042): one list for the table, the
// API's schema and the posting's type.
export const ORIGENS = ['operacao', 'desembolso', 'lancamento_manual', 'apropriacao_desagio', 'retorno', 'recompra', 'instrucao'] as const
export type Origem = (typeof ORIGENS)[number]

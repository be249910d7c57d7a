// A delivery's body: `{"id", "tipo", "criado_em", "dados"}`, the same bytes in every try of the event (the stored
// jsonb reads back the same way each time).
export type EventForBody = { id: string, tipo: string, criadoEm: Date, dados: unknown }

export const eventBody = (e: EventForBody): string => JSON.stringify({ id: e.id, tipo: e.tipo, criado_em: e.criadoEm.toISOString(), dados: e.dados })

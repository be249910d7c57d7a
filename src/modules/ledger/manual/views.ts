// A manual entry as the API answers it: snake_case, centavos as safe integers, instants in ISO 8601.
import type { ManualEntry } from './tables.ts'

export function manualEntryView(m: ManualEntry) {
  return {
    id: m.id, data: m.data, historico: m.historico, motivo: m.motivo, justificativa: m.justificativa, estado: m.estado,
    linhas: m.linhas.map((l) => ({ conta: l.conta, debito_centavos: l.debito_centavos, credito_centavos: l.credito_centavos })),
    total_centavos: m.linhas.reduce((s, l) => s + l.debito_centavos, 0),
    solicitante_usuario_id: m.solicitanteUsuarioId, solicitado_em: m.criadoEm.toISOString(),
    confirmado_por_usuario_id: m.confirmadoPorUsuarioId, confirmado_em: m.confirmadoEm?.toISOString() ?? null, lancamento_id: m.lancamentoId,
    recusado_por_usuario_id: m.recusadoPorUsuarioId, recusado_em: m.recusadoEm?.toISOString() ?? null, motivo_recusa: m.motivoRecusa,
  }
}

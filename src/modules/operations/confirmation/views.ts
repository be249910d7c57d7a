// A confirmation as the API answers it.
import type { ConfirmationRow } from './store.ts'

export function confirmationView(c: ConfirmationRow, now: Date) {
  return {
    id: c.id, titulo_id: c.titulo_id, meio: c.meio, estado: c.estado, destinatario: c.destinatario, expira_em: c.expira_em?.toISOString() ?? null,
    expirada: c.estado === 'em_andamento' && c.expira_em !== null && c.expira_em.getTime() <= now.getTime(),
    respondido_em: c.respondido_em?.toISOString() ?? null, observacao: c.observacao,
    valor_confirmado_centavos: c.valor_confirmado_centavos === null ? null : Number(c.valor_confirmado_centavos),
    evidencia: c.evidencia_sha256 === null ? null
      : { sha256: c.evidencia_sha256, tipo: c.evidencia_tipo!, nome_arquivo: c.evidencia_nome, tamanho_bytes: Number(c.evidencia_tamanho) },
    usuario_id: c.usuario_id, criado_em: c.criado_em.toISOString(),
  }
}

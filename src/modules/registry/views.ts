// The registry's answers.
import type { MirrorRow, PedidoRow } from './store.ts'

export function pedidoView(p: PedidoRow) {
  const open = p.estado === 'pendente' || p.estado === 'processando'
  return {
    id: p.id, tipo: p.tipo, estado: p.estado, tentativas: p.tentativas, protocolo: p.protocolo, erro: p.erro,
    proxima_tentativa_em: open ? p.proxima_em.toISOString() : null, resposta: p.resposta ?? null, criado_em: p.criado_em.toISOString(),
    concluido_em: p.concluido_em?.toISOString() ?? null,
  }
}

export function mirrorView(m: MirrorRow) {
  return { id: m.id, pedido_id: m.pedido_id, tipo: m.tipo, situacao: m.situacao, protocolo: m.protocolo, dados: m.dados, criado_em: m.criado_em.toISOString() }
}

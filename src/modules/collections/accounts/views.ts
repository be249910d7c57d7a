// A collection account as the API answers it: snake_case fields, instants in UTC, who added and confirmed it by name.
import { REGRAS } from '../boleto/bancos.ts'
import type { CollectionAccount } from './store.ts'

export function accountView(c: CollectionAccount) {
  return {
    id: c.id, id_externo: c.idExterno, nome: c.nome, banco: c.banco, banco_nome: REGRAS[c.banco].nome, agencia: c.agencia,
    agencia_digito: c.agenciaDigito, conta: c.conta, conta_digito: c.contaDigito, carteira: c.carteira, convenio: c.convenio,
    layout_cnab: c.layoutCnab, transporte: c.transporte, chave_pix: c.chavePix, proximo_nosso_numero: c.proximoNossoNumero,
    proxima_remessa: c.proximaRemessa, ativa: c.ativa, confirmada: c.confirmadaEm !== null,
    incluida_em: c.incluidaEm.toISOString(), incluida_por_usuario_id: c.incluidaPorUsuarioId, incluida_por: c.incluidaPorNome,
    confirmada_em: c.confirmadaEm?.toISOString() ?? null, confirmada_por_usuario_id: c.confirmadaPorUsuarioId, confirmada_por: c.confirmadaPorNome,
    atualizada_em: c.atualizadaEm.toISOString(),
  }
}

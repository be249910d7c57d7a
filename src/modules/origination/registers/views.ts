// A register as the API answers it: snake_case fields, money as a safe integer, instants in UTC.
import type { Party, StoredConta } from './store.ts'

export function partyView(p: Party): Record<string, unknown> {
  return {
    id: p.id,
    id_externo: p.idExterno,
    documento: p.documento,
    tipo_pessoa: p.tipoPessoa,
    razao_social: p.razaoSocial,
    nome_fantasia: p.nomeFantasia,
    email: p.email,
    telefone: p.telefone,
    municipio_ibge: p.municipioIbge,
    uf: p.uf,
    // A sacado's address; a cedente's row has none.
    ...(p.logradouro !== undefined ? {
      logradouro: p.logradouro, numero: p.numero, complemento: p.complemento, bairro: p.bairro, cep: p.cep, cidade: p.cidade,
    } : {}),
    limite_centavos: p.limiteCentavos === null ? null : Number(p.limiteCentavos),
    exposicao_centavos: Number(p.exposicao ?? 0n),
    estado: p.estado,
    criado_em: p.criadoEm.toISOString(),
    atualizado_em: p.atualizadoEm.toISOString(),
    ...(p.perfilIof !== undefined ? {
      perfil_iof: p.perfilIof,
      motivo_isencao: p.motivoIsencao ?? null,
      declaracao_simples: p.simplesDeclaradoEm ? { data: p.simplesDeclaradoEm, sha256: p.simplesDeclaracaoSha256 } : null,
      contas_bancarias: (p.contas ?? []).map(contaView),
    } : {}),
  }
}

export function contaView(c: StoredConta): Record<string, unknown> {
  return {
    id: c.id, banco: c.banco, agencia: c.agencia, conta: c.conta, digito: c.digito, titular_documento: c.titularDocumento,
    confirmada: c.confirmadaEm !== null, incluida_em: c.incluidaEm.toISOString(), incluida_por_usuario_id: c.incluidaPorUsuarioId,
    confirmada_em: c.confirmadaEm?.toISOString() ?? null, confirmada_por_usuario_id: c.confirmadaPorUsuarioId,
  }
}

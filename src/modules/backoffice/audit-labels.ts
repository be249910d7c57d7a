// Each action the audit trail records (AUDIT_ACTIONS), in words: the audit page says "Desembolso aprovado", not
// `desembolso.aprovado`. An action added without its words here is shown by its code (and its test says so).

export const ACTION_LABELS: Record<string, string> = {
  'cliente.criado': 'Empresa criada', 'cliente.suspenso': 'Empresa suspensa', 'cliente.reativado': 'Empresa reativada',
  'convite.enviado': 'Convite enviado', 'convite.aceito': 'Convite aceito', 'convite.reenviado': 'Convite reenviado',
  'usuario.suspenso': 'Pessoa suspensa', 'usuario.reativado': 'Pessoa reativada', 'usuario.papel_alterado': 'Papel alterado',
  'login.sucesso': 'Entrada', 'login.falha': 'Entrada recusada',
  'sessao.criada': 'Sessão aberta', 'sessao.encerrada': 'Sessão encerrada',
  'token.criado': 'Token criado', 'token.revogado': 'Token revogado', 'token.primeiro_uso': 'Primeiro uso do token', 'token.recusado': 'Token recusado',
  'cedente.criado': 'Cedente cadastrado', 'cedente.alterado': 'Cedente alterado', 'cedente.conta_confirmada': 'Conta bancária do cedente confirmada',
  'sacado.criado': 'Sacado cadastrado', 'sacado.alterado': 'Sacado alterado', 'feriado.criado': 'Feriado incluído', 'feriado.removido': 'Feriado removido',
  'produto.criado': 'Produto criado', 'produto.versao_criada': 'Nova versão do produto',
  'operacao.criada': 'Operação aberta', 'operacao.titulos_adicionados': 'Títulos incluídos', 'operacao.titulo_removido': 'Título removido',
  'operacao.cotada': 'Operação cotada', 'operacao.aceita': 'Cotação aceita', 'operacao.formalizada': 'Operação formalizada',
  'operacao.cancelada': 'Operação cancelada', 'desembolso.solicitado': 'Desembolso pedido', 'desembolso.aprovado': 'Desembolso aprovado',
  'desembolso.pago': 'Transferência registrada', 'desembolso.falhou': 'Falha da transferência registrada', 'desembolso.recusado': 'Desembolso recusado',
  'mcp.status_servicos': 'MCP: situação dos serviços', 'mcp.versao': 'MCP: versão', 'mcp.assuntos_contato': 'MCP: assuntos de contato',
  'mcp.enviar_contato': 'MCP: contato enviado', 'mcp.minha_conta': 'MCP: minha conta', 'mcp.listar_tokens': 'MCP: tokens listados',
  'mcp.revogar_token': 'MCP: token revogado', 'mcp.auditoria': 'MCP: auditoria lida', 'mcp.simular': 'MCP: simulação',
  'mcp.listar_operacoes': 'MCP: operações listadas', 'mcp.ler_operacao': 'MCP: operação lida', 'mcp.criar_operacao': 'MCP: operação aberta',
  'mcp.cotar_operacao': 'MCP: operação cotada', 'mcp.listar_cedentes': 'MCP: cedentes listados', 'mcp.listar_sacados': 'MCP: sacados listados',
  'mcp.listar_produtos': 'MCP: produtos listados',
  'lancamento_manual.solicitado': 'Lançamento manual proposto', 'lancamento_manual.confirmado': 'Lançamento manual confirmado',
  'lancamento_manual.recusado': 'Lançamento manual recusado',
  'mcp.ler_painel': 'MCP: painel lido', 'operacao.termo_enviado': 'Termo de cessão assinado enviado',
  'cliente.documento_alterado': 'CNPJ da empresa alterado',
  'conta_cobranca.criada': 'Conta de cobrança incluída', 'conta_cobranca.alterada': 'Conta de cobrança alterada',
  'conta_cobranca.confirmada': 'Conta de cobrança confirmada', 'cobranca.criada': 'Cobrança emitida',
  'cobranca.boleto_enviado': 'Boleto enviado ao sacado por e-mail',
  'retorno.enviado': 'Retorno CNAB enviado', 'recompra.criada': 'Recompra registrada', 'recompra.paga': 'Pagamento de recompra registrado',
  'recompra.cancelada': 'Recompra cancelada',
  'cobranca.instrucao': 'Instrução de cobrança pedida', 'remessa.gerada': 'Remessa CNAB gerada',
  'mcp.listar_remessas': 'MCP: remessas listadas', 'mcp.ler_remessa': 'MCP: remessa lida', 'mcp.listar_instrucoes': 'MCP: instruções listadas',
  'mcp.listar_retornos': 'MCP: retornos listados', 'mcp.ler_retorno': 'MCP: retorno lido', 'mcp.listar_recompras': 'MCP: recompras listadas',
  'mcp.ler_recompra': 'MCP: recompra lida',
}

export const actionLabel = (acao: string): string => ACTION_LABELS[acao] ?? acao

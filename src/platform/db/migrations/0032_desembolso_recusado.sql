-- An approver may refuse a payment, with a reason (issue 32, item 7): until now a payment the approver would not let
-- leave could only wait, or the operation be cancelled. A refused payment ends `recusado`, like `falhou` leaves the
-- operation free to ask again (the one-open-payment index covers only waiting, approved and paid ones), posts
-- nothing, and names who refused it, when and why. The refuser is a person and never the one who asked, as for the
-- approval (the service checks it first, with its own answer).
ALTER TABLE desembolsos DROP CONSTRAINT desembolsos_estado_check;
ALTER TABLE desembolsos
  ADD CONSTRAINT desembolsos_estado_check
    CHECK (estado IN ('aguardando_aprovacao', 'aprovado', 'pago', 'falhou', 'cancelado', 'recusado')),
  ADD COLUMN motivo_recusa text CHECK (length(motivo_recusa) BETWEEN 3 AND 500),
  ADD COLUMN recusado_por_usuario_id uuid,
  ADD COLUMN recusado_em timestamptz,
  ADD CONSTRAINT desembolsos_recusa CHECK ((estado = 'recusado')
    = (motivo_recusa IS NOT NULL AND recusado_por_usuario_id IS NOT NULL AND recusado_em IS NOT NULL)),
  ADD CONSTRAINT desembolsos_recusa_segunda_pessoa CHECK (recusado_por_usuario_id IS DISTINCT FROM solicitante_usuario_id
    OR recusado_por_usuario_id IS NULL);
GRANT UPDATE (motivo_recusa, recusado_por_usuario_id, recusado_em) ON desembolsos TO fct_servico;

-- The audit trail filtered by who, what and on what (issue 32, item 8), newest first a page at a time: each filter
-- reads its own rows in order instead of the whole trail of a customer.
CREATE INDEX auditoria_cliente_ator_idx ON auditoria_cliente (cliente_id, ator_id, numero) WHERE ator_id IS NOT NULL;
CREATE INDEX auditoria_cliente_alvo_idx ON auditoria_cliente (cliente_id, alvo_id, numero) WHERE alvo_id IS NOT NULL;
CREATE INDEX auditoria_cliente_acao_idx ON auditoria_cliente (cliente_id, acao, numero);

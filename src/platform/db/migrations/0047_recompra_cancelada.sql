-- A buy-back made by mistake is cancelled (issue 33): while it is open (not paid, not compensated), a person cancels it
-- with a reason, its entry reversed by an entry of its own, its títulos acquired again with the balances and the
-- deságio they had. A título is bought back once while a buy-back of it stands: the uniqueness is the live ones'.
ALTER TABLE recompras DROP CONSTRAINT recompras_estado_check,
  ADD CONSTRAINT recompras_estado_check CHECK (estado IN ('aberta', 'paga', 'compensada', 'cancelada')),
  ADD COLUMN cancelada_em timestamptz,
  ADD COLUMN cancelamento_lancamento_id uuid,
  ADD COLUMN motivo_cancelamento text CHECK (length(motivo_cancelamento) BETWEEN 3 AND 500),
  ADD CONSTRAINT recompras_cancelamento CHECK ((estado = 'cancelada')
    = (cancelada_em IS NOT NULL AND cancelamento_lancamento_id IS NOT NULL AND motivo_cancelamento IS NOT NULL)),
  ADD CONSTRAINT recompras_cancelamento_lancamento FOREIGN KEY (cliente_id, cancelamento_lancamento_id) REFERENCES lancamentos (cliente_id, id);

ALTER TABLE recompra_titulos ADD COLUMN ativa boolean NOT NULL DEFAULT true,
  DROP CONSTRAINT recompra_titulos_cliente_id_titulo_id_key;
CREATE UNIQUE INDEX recompra_titulos_viva ON recompra_titulos (cliente_id, titulo_id) WHERE ativa;

-- A row's títulos stand or fall with it: never made live again once cancelled.
CREATE FUNCTION recompra_titulo_alteracao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ativa AND NOT OLD.ativa THEN
    RAISE EXCEPTION 'a cancelled buy-back''s título is not bought back again by it: a new buy-back is made'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'recompra_titulos_cancelada';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER recompra_titulos_alteracao BEFORE UPDATE ON recompra_titulos FOR EACH ROW EXECUTE FUNCTION recompra_titulo_alteracao();

GRANT UPDATE (cancelada_em, cancelamento_lancamento_id, motivo_cancelamento) ON recompras TO fct_servico;
GRANT UPDATE (ativa) ON recompra_titulos TO fct_servico;

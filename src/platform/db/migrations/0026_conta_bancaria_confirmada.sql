-- A bank account added to a cedente after its registration is paid to only once a second person confirms it
-- (issue 31, item 6): an operador once swapped a cedente's account and the payment went to it. The accounts given
-- when the cedente was registered are usable at once; so are those already stored when this runs (they were
-- usable until now, and which of them were changes is not known).
ALTER TABLE cedente_contas
  ADD COLUMN incluida_em timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN incluida_por_usuario_id uuid,
  ADD COLUMN confirmada_em timestamptz,
  ADD COLUMN confirmada_por_usuario_id uuid,
  -- Confirmed by a person (a change) or by the registration itself (no person); never by whoever added it.
  ADD CONSTRAINT cedente_contas_confirmacao CHECK (confirmada_por_usuario_id IS NULL OR confirmada_em IS NOT NULL),
  ADD CONSTRAINT cedente_contas_segunda_pessoa CHECK (confirmada_por_usuario_id IS DISTINCT FROM incluida_por_usuario_id
    OR confirmada_por_usuario_id IS NULL),
  -- Confirmed by no person only by the registration itself, the instant it was added.
  ADD CONSTRAINT cedente_contas_confirmada_por_pessoa CHECK (confirmada_em IS NULL OR confirmada_por_usuario_id IS NOT NULL
    OR confirmada_em = incluida_em);
UPDATE cedente_contas SET confirmada_em = incluida_em;

-- A confirmation after the fact always names the person who gave it (the code's only update of these columns; taking a
-- confirmation back would only make an account unusable, and is let be).
CREATE FUNCTION conta_confirmada_por_pessoa() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.confirmada_por_usuario_id IS NULL OR NEW.confirmada_por_usuario_id IS NOT DISTINCT FROM NEW.incluida_por_usuario_id THEN
    RAISE EXCEPTION 'a bank account is confirmed by a person other than the one who added it'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'cedente_contas_confirmada_por_pessoa';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER cedente_contas_confirmacao_por_pessoa BEFORE UPDATE OF confirmada_em, confirmada_por_usuario_id ON cedente_contas
  FOR EACH ROW WHEN (NEW.confirmada_em IS NOT NULL AND (NEW.confirmada_em IS DISTINCT FROM OLD.confirmada_em
    OR NEW.confirmada_por_usuario_id IS DISTINCT FROM OLD.confirmada_por_usuario_id))
  EXECUTE FUNCTION conta_confirmada_por_pessoa();
GRANT UPDATE (confirmada_em, confirmada_por_usuario_id) ON cedente_contas TO fct_servico;

-- The database holds it for the money too: a payment is asked for, approved and recorded only to an account the
-- cedente has, confirmed. (It runs as the caller, under row security: the account must be the same customer's.)
CREATE FUNCTION desembolso_conta_confirmada() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.estado IN ('aguardando_aprovacao', 'aprovado', 'pago') AND NOT EXISTS (
    SELECT 1 FROM cedente_contas c WHERE c.cliente_id = NEW.cliente_id AND c.cedente_id = NEW.cedente_id AND c.banco = NEW.banco
      AND c.agencia = NEW.agencia AND c.conta = NEW.conta AND c.digito = NEW.digito AND c.confirmada_em IS NOT NULL) THEN
    RAISE EXCEPTION 'the payment''s bank account is not a confirmed account of its cedente'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'desembolsos_conta_confirmada';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER desembolsos_conta_confirmada BEFORE INSERT OR UPDATE OF estado ON desembolsos
  FOR EACH ROW WHEN (NEW.estado IN ('aguardando_aprovacao', 'aprovado', 'pago'))
  EXECUTE FUNCTION desembolso_conta_confirmada();

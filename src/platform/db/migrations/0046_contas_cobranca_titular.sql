-- Two rules a red team of issue 33 found missing from the collection accounts.
--
-- A bank's beneficiary is one customer. The bank's API is reached with the platform's credentials and finds a boleto
-- by its beneficiary and the nosso número every boleto prints: a customer who added another customer's beneficiary
-- as its own, with the API as its transport, could register, write off or re-date that customer's boletos at the
-- bank. The beneficiary is the agência and conta at every bank, and at Banco do Brasil, Santander and Caixa also the
-- convênio (their código do beneficiário, which their nosso número and barcode carry). One the platform speaks to the
-- bank for by API is one customer's alone: refused to a second customer while a first holds it, on either side's API,
-- when added and when its transport or convênio changes. (By CNAB files the customer's own channel to its bank carries
-- them, and a bank takes no file for an account that is not the sender's: two customers may then name the same
-- account, as a FIDC and its servicer may.) Accounts of one bank are added one at a time across customers (a lock of
-- the bank's code): so the second of two at once sees the first. The check reads across customers, as only the
-- schema's owner may (SECURITY DEFINER), and says nothing of whose it is.
CREATE FUNCTION conta_cobranca_titular() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('conta_cobranca:' || NEW.banco, 0));
  IF EXISTS (SELECT 1 FROM public.contas_cobranca c
              WHERE c.banco = NEW.banco AND c.cliente_id <> NEW.cliente_id AND (c.transporte = 'api' OR NEW.transporte = 'api')
                AND ((c.agencia = NEW.agencia AND ltrim(c.conta, '0') = ltrim(NEW.conta, '0'))
                  OR (NEW.banco IN ('001', '033', '104') AND ltrim(c.convenio, '0') = ltrim(NEW.convenio, '0')))) THEN
    RAISE EXCEPTION 'this beneficiary is another customer''s collection account, and one of them speaks to the bank by its API'
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'contas_cobranca_titular';
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION conta_cobranca_titular() FROM PUBLIC;
CREATE TRIGGER contas_cobranca_titular BEFORE INSERT OR UPDATE OF transporte, convenio ON contas_cobranca
  FOR EACH ROW EXECUTE FUNCTION conta_cobranca_titular();

-- The confirmation is a second person's for every change it confirms, not only for the account's first version: the
-- people whose changes await confirmation (who added the account, and everyone who changed where its money goes
-- since it was last confirmed) are kept, and none of them may confirm it. A new account's is who added it, unless
-- said.
ALTER TABLE contas_cobranca ADD COLUMN pendente_por_usuario_ids uuid[];
UPDATE contas_cobranca SET pendente_por_usuario_ids = ARRAY[incluida_por_usuario_id];
ALTER TABLE contas_cobranca ALTER COLUMN pendente_por_usuario_ids SET NOT NULL,
  ADD CONSTRAINT contas_cobranca_segunda_pessoa_da_alteracao
    CHECK (confirmada_por_usuario_id IS NULL OR NOT (confirmada_por_usuario_id = ANY (pendente_por_usuario_ids)));
GRANT UPDATE (pendente_por_usuario_ids) ON contas_cobranca TO fct_servico;

CREATE FUNCTION conta_cobranca_pendente_por() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.pendente_por_usuario_ids := coalesce(NEW.pendente_por_usuario_ids, ARRAY[NEW.incluida_por_usuario_id]);
  RETURN NEW;
END
$$;
CREATE TRIGGER contas_cobranca_pendente_por BEFORE INSERT ON contas_cobranca FOR EACH ROW EXECUTE FUNCTION conta_cobranca_pendente_por();

-- Manual ledger entries (issue 32 item 10): the capital paid in, the funding received, a bank's fee, an adjustment.
-- Until now the ledger moved only with operations and payments, so a customer's bank account showed in credit (the
-- payments went out, nothing recorded the money they came from). An administrador proposes an entry; a second
-- person confirms it (or it is refused); only then is it posted, as every entry is (0020's balance at commit,
-- 0029's number, 0030's total). The database holds the rules here too:
--   * a proposal's lines balance, each has one side, at least two, none on the accounts moved only by operations;
--   * its confirmer is a person other than its proposer;
--   * an entry of origin `lancamento_manual` is posted only for a confirmed proposal, once, with exactly its lines.

-- The accounts a factoring needs to record where its money comes from and what the bank takes, after 0020's seven.
INSERT INTO contas_contabeis (codigo, nome, natureza, por_cedente, ordem) VALUES
  ('capital_social', 'Capital social', 'credora', false, 8),
  ('emprestimos_financiamentos', 'Empréstimos e financiamentos / cotas seniores', 'credora', false, 9),
  ('despesas_bancarias', 'Despesas bancárias', 'devedora', false, 10);

ALTER TABLE lancamentos DROP CONSTRAINT lancamentos_origem_tipo_check,
  ADD CONSTRAINT lancamentos_origem_tipo_check CHECK (origem_tipo IN ('operacao', 'desembolso', 'lancamento_manual'));

-- A proposal's lines, as JSON: [{"conta", "debito_centavos", "credito_centavos"}, …]. The cedentes' conta gráfica and
-- the receivables are sub-ledgers of operations (a cedente's statement, a título's balance): never moved by hand.
CREATE FUNCTION linhas_manuais_validas(linhas jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(linhas) = 'array' AND jsonb_array_length(linhas) BETWEEN 2 AND 20
    AND NOT EXISTS (
      SELECT 1 FROM jsonb_array_elements(linhas) l
       WHERE jsonb_typeof(l) <> 'object' OR jsonb_typeof(l -> 'conta') IS DISTINCT FROM 'string'
          OR l ->> 'conta' IN ('conta_grafica_cedentes', 'direitos_creditorios')
          OR jsonb_typeof(l -> 'debito_centavos') IS DISTINCT FROM 'number' OR jsonb_typeof(l -> 'credito_centavos') IS DISTINCT FROM 'number'
          OR NOT ((l ->> 'debito_centavos')::numeric BETWEEN 0 AND 9007199254740991)
          OR NOT ((l ->> 'credito_centavos')::numeric BETWEEN 0 AND 9007199254740991)
          OR (l ->> 'debito_centavos')::numeric % 1 <> 0 OR (l ->> 'credito_centavos')::numeric % 1 <> 0
          OR ((l ->> 'debito_centavos')::numeric > 0) = ((l ->> 'credito_centavos')::numeric > 0))
    AND (SELECT sum((l ->> 'debito_centavos')::numeric) = sum((l ->> 'credito_centavos')::numeric) FROM jsonb_array_elements(linhas) l)
$$;

CREATE TABLE lancamentos_manuais (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  data date NOT NULL CHECK (data BETWEEN date '2000-01-01' AND date '2199-12-31'),
  historico text NOT NULL CHECK (length(historico) BETWEEN 2 AND 300),
  motivo text NOT NULL CHECK (motivo IN ('aporte_capital', 'funding_recebido', 'tarifa_bancaria', 'ajuste')),
  justificativa text NOT NULL CHECK (length(justificativa) BETWEEN 3 AND 500),
  linhas jsonb NOT NULL CONSTRAINT lancamentos_manuais_balanceado CHECK (linhas_manuais_validas(linhas)),
  estado text NOT NULL DEFAULT 'aguardando_confirmacao' CHECK (estado IN ('aguardando_confirmacao', 'confirmado', 'recusado')),
  solicitante_usuario_id uuid NOT NULL,
  confirmado_por_usuario_id uuid,
  confirmado_em timestamptz,
  lancamento_id uuid,
  -- Refused by a second person, or withdrawn by its proposer; by a token with no person, null.
  recusado_por_usuario_id uuid,
  recusado_em timestamptz,
  motivo_recusa text CHECK (length(motivo_recusa) BETWEEN 3 AND 500),
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT lancamentos_manuais_segunda_pessoa CHECK (confirmado_por_usuario_id IS DISTINCT FROM solicitante_usuario_id),
  CHECK ((estado = 'confirmado') = (confirmado_por_usuario_id IS NOT NULL AND confirmado_em IS NOT NULL AND lancamento_id IS NOT NULL)),
  CHECK ((estado = 'recusado') = (recusado_em IS NOT NULL AND motivo_recusa IS NOT NULL)),
  FOREIGN KEY (cliente_id, solicitante_usuario_id) REFERENCES usuarios (cliente_id, id),
  FOREIGN KEY (cliente_id, confirmado_por_usuario_id) REFERENCES usuarios (cliente_id, id),
  FOREIGN KEY (cliente_id, lancamento_id) REFERENCES lancamentos (cliente_id, id),
  UNIQUE (cliente_id, id),
  UNIQUE (cliente_id, lancamento_id)
);
CREATE INDEX lancamentos_manuais_estado_idx ON lancamentos_manuais (cliente_id, estado, seq);
CREATE INDEX lancamentos_manuais_seq_idx ON lancamentos_manuais (cliente_id, seq);

-- A decided proposal stays as decided: its lines and its decision are the record of why the ledger moved.
CREATE FUNCTION lancamento_manual_decidido() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.estado <> 'aguardando_confirmacao' THEN
    RAISE EXCEPTION 'manual entry % is % already', OLD.id, OLD.estado USING ERRCODE = 'check_violation', CONSTRAINT = 'lancamentos_manuais_decidido';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER lancamentos_manuais_decidido BEFORE UPDATE ON lancamentos_manuais
  FOR EACH ROW EXECUTE FUNCTION lancamento_manual_decidido();

-- Checked at commit for each entry of origin lancamento_manual: its proposal is confirmed, names this entry, and the
-- entry's lines are exactly the proposal's (a multiset: the same account may appear twice).
CREATE FUNCTION lancamento_manual_confirmado() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  proposta jsonb;
  diferentes integer;
BEGIN
  SELECT m.linhas INTO proposta FROM lancamentos_manuais m
   WHERE m.cliente_id = NEW.cliente_id AND m.id = NEW.origem_id AND m.estado = 'confirmado' AND m.lancamento_id = NEW.id;
  IF proposta IS NULL THEN
    RAISE EXCEPTION 'ledger entry % is not the posting of a confirmed manual entry', NEW.id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'lancamentos_manuais_confirmado';
  END IF;
  SELECT count(*) INTO diferentes FROM (
    (SELECT conta, debito_centavos, credito_centavos FROM lancamento_linhas WHERE cliente_id = NEW.cliente_id AND lancamento_id = NEW.id
     EXCEPT ALL
     SELECT l ->> 'conta', (l ->> 'debito_centavos')::bigint, (l ->> 'credito_centavos')::bigint FROM jsonb_array_elements(proposta) l)
    UNION ALL
    (SELECT l ->> 'conta', (l ->> 'debito_centavos')::bigint, (l ->> 'credito_centavos')::bigint FROM jsonb_array_elements(proposta) l
     EXCEPT ALL
     SELECT conta, debito_centavos, credito_centavos FROM lancamento_linhas WHERE cliente_id = NEW.cliente_id AND lancamento_id = NEW.id)
  ) d;
  IF diferentes > 0 THEN
    RAISE EXCEPTION 'ledger entry % does not post its manual entry''s lines', NEW.id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'lancamentos_manuais_confirmado';
  END IF;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION lancamento_manual_confirmado() FROM PUBLIC;
CREATE CONSTRAINT TRIGGER lancamentos_manuais_confirmados AFTER INSERT ON lancamentos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.origem_tipo = 'lancamento_manual') EXECUTE FUNCTION lancamento_manual_confirmado();

SELECT aplica_tenancy('lancamentos_manuais');

GRANT SELECT, INSERT ON lancamentos_manuais TO fct_servico;
GRANT UPDATE (estado, confirmado_por_usuario_id, confirmado_em, lancamento_id, recusado_por_usuario_id, recusado_em, motivo_recusa, atualizado_em)
  ON lancamentos_manuais TO fct_servico;

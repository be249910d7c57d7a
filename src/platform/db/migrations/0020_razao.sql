-- The ledger (produto.md §2.7): double entry, per customer, append-only. The database itself holds its rules:
--   * an entry balances (Σ debits = Σ credits, and it has lines): a constraint trigger checked at commit, so the
--     lines of one entry may be written one by one inside its transaction;
--   * a line has exactly one of debit or credit above zero (a CHECK);
--   * no entry or line is ever updated, deleted or truncated (triggers, the owner included; no grant either).
-- The chart of accounts is the service's, the same for every customer (data, so more may come by migration); the
-- cedentes' conta gráfica is one account with a sub-account per cedente (the line's cedente_id).
CREATE TABLE contas_contabeis (
  codigo text PRIMARY KEY CHECK (codigo ~ '^[a-z_]{2,60}$'),
  nome text NOT NULL,
  -- Debit-natured accounts (assets) grow by debits, credit-natured ones (liabilities, income) by credits.
  natureza text NOT NULL CHECK (natureza IN ('devedora', 'credora')),
  -- Whether each line names a cedente (its sub-account).
  por_cedente boolean NOT NULL DEFAULT false,
  ordem smallint NOT NULL UNIQUE
);
INSERT INTO contas_contabeis (codigo, nome, natureza, por_cedente, ordem) VALUES
  ('banco', 'Banco (conta movimento)', 'devedora', false, 1),
  ('direitos_creditorios', 'Direitos creditórios adquiridos (valor de face)', 'devedora', false, 2),
  ('conta_grafica_cedentes', 'Conta gráfica dos cedentes', 'credora', true, 3),
  ('iof_a_recolher', 'IOF a recolher', 'credora', false, 4),
  ('desagio_a_apropriar', 'Deságio a apropriar', 'credora', false, 5),
  ('receita_ad_valorem', 'Receita de ad valorem', 'credora', false, 6),
  ('receita_tarifas', 'Receita de tarifas', 'credora', false, 7);
CREATE TRIGGER contas_contabeis_imutaveis BEFORE UPDATE OR DELETE ON contas_contabeis
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('an account of the chart is never changed or removed: add one');

CREATE TABLE lancamentos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  data date NOT NULL CHECK (data BETWEEN date '2000-01-01' AND date '2199-12-31'),
  historico text NOT NULL CHECK (length(historico) BETWEEN 2 AND 300),
  -- What made it: the operation accepted or cancelled, the payment made.
  origem_tipo text NOT NULL CHECK (origem_tipo IN ('operacao', 'desembolso')),
  origem_id uuid NOT NULL,
  request_id text,
  criado_em timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cliente_id, id)
);
CREATE INDEX lancamentos_data_idx ON lancamentos (cliente_id, data, seq);
CREATE INDEX lancamentos_origem_idx ON lancamentos (cliente_id, origem_id);

CREATE TABLE lancamento_linhas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cliente_id uuid NOT NULL,
  lancamento_id uuid NOT NULL,
  -- The entry's date and order, copied so that a conta gráfica and an account's lines read from one index.
  data date NOT NULL,
  lancamento_seq bigint NOT NULL,
  conta text NOT NULL REFERENCES contas_contabeis (codigo),
  cedente_id uuid,
  debito_centavos bigint NOT NULL DEFAULT 0 CHECK (debito_centavos BETWEEN 0 AND 9007199254740991),
  credito_centavos bigint NOT NULL DEFAULT 0 CHECK (credito_centavos BETWEEN 0 AND 9007199254740991),
  CONSTRAINT lancamento_linhas_um_lado CHECK ((debito_centavos > 0) <> (credito_centavos > 0)),
  CONSTRAINT lancamento_linhas_subconta CHECK ((conta = 'conta_grafica_cedentes') = (cedente_id IS NOT NULL)),
  FOREIGN KEY (cliente_id, lancamento_id) REFERENCES lancamentos (cliente_id, id),
  FOREIGN KEY (cliente_id, cedente_id) REFERENCES cedentes (cliente_id, id)
);
CREATE INDEX lancamento_linhas_lancamento_idx ON lancamento_linhas (cliente_id, lancamento_id);
CREATE INDEX lancamento_linhas_conta_idx ON lancamento_linhas (cliente_id, conta, data, lancamento_seq);
-- The conta gráfica of one cedente: its lines in order, with the amounts in the index (an index-only running sum).
CREATE INDEX lancamento_linhas_cedente_idx ON lancamento_linhas (cliente_id, cedente_id, data, lancamento_seq)
  INCLUDE (debito_centavos, credito_centavos) WHERE cedente_id IS NOT NULL;

-- Checked at commit for each entry written in the transaction: it has lines and they balance.
CREATE FUNCTION lancamento_balanceado() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  alvo uuid;
  debitos numeric;
  creditos numeric;
  linhas integer;
BEGIN
  -- Two statements, not a CASE: a record has only its own table's fields, and an expression naming another's fails.
  IF TG_TABLE_NAME = 'lancamentos' THEN
    alvo := NEW.id;
  ELSE
    alvo := NEW.lancamento_id;
  END IF;
  SELECT coalesce(sum(debito_centavos), 0), coalesce(sum(credito_centavos), 0), count(*)
    INTO debitos, creditos, linhas
    FROM lancamento_linhas WHERE lancamento_id = alvo;
  IF linhas < 2 OR debitos <> creditos THEN
    RAISE EXCEPTION 'ledger entry % does not balance: debits %, credits %, % lines', alvo, debitos, creditos, linhas
      USING ERRCODE = 'check_violation', CONSTRAINT = 'lancamento_balanceado';
  END IF;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION lancamento_balanceado() FROM PUBLIC;
CREATE CONSTRAINT TRIGGER lancamentos_balanceados AFTER INSERT ON lancamentos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lancamento_balanceado();
CREATE CONSTRAINT TRIGGER lancamento_linhas_balanceadas AFTER INSERT ON lancamento_linhas
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lancamento_balanceado();

CREATE TRIGGER lancamentos_imutaveis BEFORE UPDATE OR DELETE ON lancamentos
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('a ledger entry is never changed or removed: post its reversal');
CREATE TRIGGER lancamentos_sem_truncate BEFORE TRUNCATE ON lancamentos
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('a ledger entry is never changed or removed: post its reversal');
CREATE TRIGGER lancamento_linhas_imutaveis BEFORE UPDATE OR DELETE ON lancamento_linhas
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('a ledger entry is never changed or removed: post its reversal');
CREATE TRIGGER lancamento_linhas_sem_truncate BEFORE TRUNCATE ON lancamento_linhas
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('a ledger entry is never changed or removed: post its reversal');

SELECT aplica_tenancy('lancamentos', 'lancamento_linhas');

GRANT SELECT ON contas_contabeis TO fct_servico;
GRANT SELECT, INSERT ON lancamentos, lancamento_linhas TO fct_servico;

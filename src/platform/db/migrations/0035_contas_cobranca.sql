-- The customer's collection accounts (contas de cobrança, issue 33, release II): the bank account its boletos are
-- registered under, with what the bank's contract gives it (carteira, convênio or código do beneficiário, the CNAB
-- layout it exchanges) and the two sequences the customer's charges and files take their numbers from.
-- - banco, agência, conta and carteira never change (no grant): another account is a new row.
-- - The sequences only go up (a trigger): a nosso número or a remessa's number given once is never given again, or
--   the bank would take a second charge for the first, or refuse the file.
-- - Usable for charges only once a second person confirms it, as a cedente's bank account (0026): it decides where
--   the sacados' money is paid to. Changing where that money goes (the convênio, the PIX key, the transport) after the
--   confirmation takes the confirmation away, in the same update.
CREATE TABLE contas_cobranca (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id_externo text CHECK (id_externo ~ '^[!-~]{1,64}$'),
  nome text NOT NULL CHECK (length(nome) BETWEEN 2 AND 120
    AND nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  banco text NOT NULL CHECK (banco IN ('001', '033', '104', '237', '341')),
  agencia text NOT NULL CHECK (agencia ~ '^[0-9]{4}$'),
  agencia_digito text CHECK (agencia_digito ~ '^[0-9A-Z]$'),
  conta text NOT NULL CHECK (conta ~ '^[0-9]{1,12}$'),
  conta_digito text NOT NULL CHECK (conta_digito ~ '^[0-9A-Z]$'),
  carteira text NOT NULL CHECK (carteira ~ '^[0-9A-Z]{1,3}$'),
  convenio text CHECK (convenio ~ '^[0-9]{1,20}$'),
  layout_cnab text NOT NULL CHECK (layout_cnab IN ('240', '400')),
  transporte text NOT NULL DEFAULT 'cnab' CHECK (transporte IN ('cnab', 'api')),
  -- A DICT key (CPF, CNPJ, e-mail, +55 phone, random key): at most 77 characters, no blank, control or bidi character.
  chave_pix text CHECK (length(chave_pix) BETWEEN 1 AND 77
    AND chave_pix !~ '[[:space:]\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  proximo_nosso_numero bigint NOT NULL DEFAULT 1 CHECK (proximo_nosso_numero >= 1),
  proxima_remessa integer NOT NULL DEFAULT 1 CHECK (proxima_remessa >= 1),
  ativa boolean NOT NULL DEFAULT true,
  -- Added by a person always (a token with no person could not be told apart from its confirmer).
  incluida_em timestamptz NOT NULL DEFAULT now(),
  incluida_por_usuario_id uuid NOT NULL,
  confirmada_em timestamptz,
  confirmada_por_usuario_id uuid,
  atualizada_em timestamptz NOT NULL DEFAULT now(),
  -- CNAB 400 only where the bank still takes it (produto.md §3): Bradesco and Itaú.
  CONSTRAINT contas_cobranca_layout_cnab CHECK (layout_cnab = '240' OR banco IN ('237', '341')),
  -- The next nosso número's sequence, within the digits the bank's campo livre gives it.
  CONSTRAINT contas_cobranca_nosso_numero_digitos CHECK (proximo_nosso_numero <= CASE banco
    WHEN '001' THEN 9999999999 WHEN '033' THEN 999999999999 WHEN '104' THEN 999999999999999 WHEN '237' THEN 99999999999 ELSE 99999999 END),
  CONSTRAINT contas_cobranca_confirmacao CHECK ((confirmada_em IS NULL) = (confirmada_por_usuario_id IS NULL)),
  CONSTRAINT contas_cobranca_segunda_pessoa CHECK (confirmada_por_usuario_id IS DISTINCT FROM incluida_por_usuario_id
    OR confirmada_por_usuario_id IS NULL),
  CONSTRAINT contas_cobranca_conta_unica UNIQUE (cliente_id, banco, agencia, conta, carteira),
  CONSTRAINT contas_cobranca_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX contas_cobranca_lista_idx ON contas_cobranca (cliente_id, seq);

-- What the columns' CHECKs cannot say, since it compares the row with itself before the update.
CREATE FUNCTION conta_cobranca_alteracao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.proximo_nosso_numero < OLD.proximo_nosso_numero OR NEW.proxima_remessa < OLD.proxima_remessa THEN
    RAISE EXCEPTION 'a collection account''s sequences only go up: a number given once is never given again'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'contas_cobranca_sequencias_crescentes';
  END IF;
  -- Where the sacados' money goes changed: the confirmation given to the old route does not carry over.
  IF NEW.confirmada_em IS NOT NULL AND NEW.confirmada_em IS NOT DISTINCT FROM OLD.confirmada_em
    AND (NEW.convenio, NEW.chave_pix, NEW.transporte) IS DISTINCT FROM (OLD.convenio, OLD.chave_pix, OLD.transporte) THEN
    RAISE EXCEPTION 'a confirmed collection account whose convenio, PIX key or transport changes is confirmed again, by a second person'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'contas_cobranca_reconfirmacao';
  END IF;
  IF (NEW.banco, NEW.agencia, NEW.conta, NEW.conta_digito, NEW.carteira, NEW.cliente_id, NEW.incluida_por_usuario_id)
    IS DISTINCT FROM (OLD.banco, OLD.agencia, OLD.conta, OLD.conta_digito, OLD.carteira, OLD.cliente_id, OLD.incluida_por_usuario_id) THEN
    RAISE EXCEPTION 'a collection account''s bank, agency, account and carteira never change: add another account'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'contas_cobranca_conta_fixa';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER contas_cobranca_alteracao BEFORE UPDATE ON contas_cobranca FOR EACH ROW EXECUTE FUNCTION conta_cobranca_alteracao();

SELECT aplica_tenancy('contas_cobranca');

-- Never deleted (a charge will name it): an account no longer used is made inactive.
GRANT SELECT, INSERT ON contas_cobranca TO fct_servico;
GRANT UPDATE (nome, chave_pix, convenio, layout_cnab, transporte, ativa, proximo_nosso_numero, proxima_remessa, confirmada_em,
  confirmada_por_usuario_id, atualizada_em) ON contas_cobranca TO fct_servico;

-- The customer's charges (cobranças, issue 33, release II): an acquired título charged by boleto under one of the
-- customer's collection accounts (0035), for its open balance and its due date.
-- - The nosso número is the account's sequence (or the customer's own choice), kept as the sequence's digits without
--   leading zeros, unique per account for ever: a number given once is never given to another charge, whatever became
--   of the first (the bank would take the second for the first).
-- - The barcode and the linha digitável are computed once, from the bank's campo livre, and never change (no grant).
-- - One live charge per título (a_registrar or registrada): a second would have the sacado pay twice.
-- - The bank's adapter registers the charge (estado, the cobv's BR Code and location, the bank's answer kept): the
--   only columns the service updates.
CREATE TABLE cobrancas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  numero bigint NOT NULL,
  titulo_id uuid NOT NULL,
  conta_cobranca_id uuid NOT NULL,
  nosso_numero text NOT NULL CHECK (nosso_numero ~ '^[1-9][0-9]{0,14}$'),
  nosso_numero_impresso text NOT NULL CHECK (length(nosso_numero_impresso) BETWEEN 1 AND 40),
  codigo_barras text NOT NULL CHECK (codigo_barras ~ '^[0-9]{44}$'),
  linha_digitavel text NOT NULL CHECK (linha_digitavel ~ '^[0-9]{5}\.[0-9]{5} [0-9]{5}\.[0-9]{6} [0-9]{5}\.[0-9]{6} [0-9] [0-9]{14}$'),
  -- Ten digits of centavos: what a barcode carries.
  valor_centavos bigint NOT NULL CHECK (valor_centavos > 0 AND valor_centavos <= 9999999999),
  vencimento date NOT NULL,
  juros_tipo text NOT NULL CHECK (juros_tipo IN ('valor_dia', 'taxa_mensal', 'isento')),
  juros_valor_centavos bigint,
  juros_taxa_mensal numeric,
  multa_percentual numeric NOT NULL DEFAULT 0 CHECK (multa_percentual >= 0 AND multa_percentual <= 0.2),
  desconto_valor_centavos bigint NOT NULL DEFAULT 0,
  desconto_ate date,
  protesto_dias smallint NOT NULL DEFAULT 0 CHECK (protesto_dias BETWEEN 0 AND 99),
  estado text NOT NULL DEFAULT 'a_registrar' CHECK (estado IN ('a_registrar', 'registrada', 'rejeitada', 'liquidada', 'baixada')),
  pix_copia_e_cola text CHECK (length(pix_copia_e_cola) BETWEEN 1 AND 512),
  pix_location text CHECK (length(pix_location) BETWEEN 1 AND 77),
  banco_resposta jsonb,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT cobrancas_juros CHECK (CASE juros_tipo
    WHEN 'valor_dia' THEN juros_valor_centavos > 0 AND juros_taxa_mensal IS NULL
    WHEN 'taxa_mensal' THEN juros_taxa_mensal > 0 AND juros_taxa_mensal < 1 AND juros_valor_centavos IS NULL
    ELSE juros_valor_centavos IS NULL AND juros_taxa_mensal IS NULL END),
  CONSTRAINT cobrancas_desconto CHECK (desconto_valor_centavos >= 0 AND desconto_valor_centavos < valor_centavos
    AND (desconto_valor_centavos = 0) = (desconto_ate IS NULL) AND (desconto_ate IS NULL OR desconto_ate <= vencimento)),
  -- A charge registered at the bank has the bank's answer; its PIX comes with it (or never, at a bank without one).
  CONSTRAINT cobrancas_pix CHECK ((pix_copia_e_cola IS NULL OR estado <> 'a_registrar') AND (pix_location IS NULL) = (pix_copia_e_cola IS NULL)),
  CONSTRAINT cobrancas_nosso_numero_unico UNIQUE (cliente_id, conta_cobranca_id, nosso_numero),
  CONSTRAINT cobrancas_numero_unico UNIQUE (cliente_id, numero),
  FOREIGN KEY (cliente_id, titulo_id) REFERENCES titulos (cliente_id, id),
  FOREIGN KEY (cliente_id, conta_cobranca_id) REFERENCES contas_cobranca (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX cobrancas_lista_idx ON cobrancas (cliente_id, seq);
-- One live charge per título: the sacado is never asked to pay it twice.
CREATE UNIQUE INDEX cobrancas_titulo_viva ON cobrancas (cliente_id, titulo_id) WHERE estado IN ('a_registrar', 'registrada');

-- The charge's number per customer (0029): the function learns the new table, its other branches as they were.
CREATE OR REPLACE FUNCTION numera_por_cliente() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_NAME), hashtext(NEW.cliente_id::text));
  IF TG_TABLE_NAME = 'operacoes' THEN
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.operacoes WHERE cliente_id = NEW.cliente_id;
  ELSIF TG_TABLE_NAME = 'lancamentos' THEN
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.lancamentos WHERE cliente_id = NEW.cliente_id;
  ELSIF TG_TABLE_NAME = 'cobrancas' THEN
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.cobrancas WHERE cliente_id = NEW.cliente_id;
  ELSE
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.auditoria_cliente WHERE cliente_id = NEW.cliente_id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER cobrancas_numera BEFORE INSERT ON cobrancas FOR EACH ROW EXECUTE FUNCTION numera_por_cliente();

SELECT aplica_tenancy('cobrancas');

-- Never deleted, and what was charged never changes: only the bank's registration (and, later, its return) is written.
GRANT SELECT, INSERT ON cobrancas TO fct_servico;
GRANT UPDATE (estado, pix_copia_e_cola, pix_location, banco_resposta, atualizado_em) ON cobrancas TO fct_servico;

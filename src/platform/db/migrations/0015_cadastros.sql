-- The product's registers (produto.md §2.1): the customer's cedentes (who sells the receivables, with the bank
-- accounts they are paid to and their IOF profile) and sacados (who owes them). A customer's data: cliente_id,
-- forced row-level security, grants exactly as used. `seq` orders the lists and is their cursor (`antes`).
-- Names may not hold control or bidi characters (as 0010 for the credential tables); a document is kept bare
-- and upper-case, its shape checked here and its check digits by the service (src/modules/origination/documento.ts).
CREATE TABLE sacados (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id_externo text CHECK (id_externo ~ '^[!-~]{1,64}$'),
  documento text NOT NULL CHECK (documento ~ '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$'),
  tipo_pessoa text NOT NULL CHECK (tipo_pessoa = CASE WHEN length(documento) = 11 THEN 'pf' ELSE 'pj' END),
  razao_social text NOT NULL CHECK (length(razao_social) BETWEEN 2 AND 200),
  nome_fantasia text CHECK (length(nome_fantasia) BETWEEN 1 AND 200),
  email text CHECK (length(email) BETWEEN 3 AND 254),
  telefone text CHECK (telefone ~ '^\+?[0-9]{8,15}$'),
  municipio_ibge text CHECK (municipio_ibge ~ '^[0-9]{7}$'),
  uf text CHECK (uf IN ('AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI',
    'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO')),
  limite_centavos bigint CHECK (limite_centavos BETWEEN 0 AND 9007199254740991),
  estado text NOT NULL DEFAULT 'ativo' CHECK (estado IN ('ativo', 'bloqueado')),
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sacados_nomes_imprimiveis CHECK (razao_social || coalesce(nome_fantasia, '')
    !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  CONSTRAINT sacados_documento_unico UNIQUE (cliente_id, documento),
  CONSTRAINT sacados_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX sacados_lista_idx ON sacados (cliente_id, seq);

-- A cedente is a sacado's columns (LIKE: the same shapes and checks, a sequence of its own) and its IOF profile.
CREATE TABLE cedentes (
  LIKE sacados INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY,
  perfil_iof text NOT NULL CHECK (perfil_iof IN ('pj', 'pj_simples', 'pf', 'isento')),
  motivo_isencao text CHECK (length(motivo_isencao) BETWEEN 3 AND 500),
  PRIMARY KEY (id),
  FOREIGN KEY (cliente_id) REFERENCES clientes (id),
  CHECK ((perfil_iof = 'isento') = (motivo_isencao IS NOT NULL)),
  CONSTRAINT cedentes_motivo_imprimivel CHECK (motivo_isencao !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  CONSTRAINT cedentes_documento_unico UNIQUE (cliente_id, documento),
  CONSTRAINT cedentes_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id),
  -- What a bank account's holder is checked against (cedente_contas below).
  UNIQUE (cliente_id, id, documento)
);
CREATE INDEX cedentes_lista_idx ON cedentes (cliente_id, seq);

-- The accounts a cedente is paid to: the holder is the cedente itself, which the foreign key holds (a payment to
-- someone else's account is how a fraud pays itself). A change of the list replaces it: an operation's payment
-- keeps its own copy of the account it was made to.
CREATE TABLE cedente_contas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  cedente_id uuid NOT NULL,
  ordem smallint NOT NULL CHECK (ordem BETWEEN 0 AND 19),
  banco text NOT NULL CHECK (banco ~ '^[0-9]{3}$'),
  agencia text NOT NULL CHECK (agencia ~ '^[0-9]{1,5}$'),
  conta text NOT NULL CHECK (conta ~ '^[0-9]{1,13}$'),
  digito text NOT NULL CHECK (digito ~ '^[0-9X]{1,2}$'),
  titular_documento text NOT NULL,
  FOREIGN KEY (cliente_id, cedente_id, titular_documento) REFERENCES cedentes (cliente_id, id, documento),
  UNIQUE (cliente_id, cedente_id, ordem),
  UNIQUE (cliente_id, cedente_id, banco, agencia, conta, digito)
);

-- Every table holding a customer's data: row security enabled and forced, the transaction's customer only
-- (`app.cliente_id`, set by withTenant), and the owner's read (as 0005 does for the credential tables). A
-- function, so each later migration of the product says it in one line.
CREATE FUNCTION aplica_tenancy(VARIADIC tabelas text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  tabela text;
BEGIN
  FOREACH tabela IN ARRAY tabelas LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tabela);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tabela);
    EXECUTE format($p$CREATE POLICY cliente_atual ON %I
      USING (cliente_id = nullif(current_setting('app.cliente_id', true), '')::uuid)
      WITH CHECK (cliente_id = nullif(current_setting('app.cliente_id', true), '')::uuid)$p$, tabela);
    EXECUTE format('CREATE POLICY dono_le ON %I FOR SELECT TO %I USING (true)', tabela, current_user);
  END LOOP;
END
$$;
REVOKE ALL ON FUNCTION aplica_tenancy(text[]) FROM PUBLIC;

SELECT aplica_tenancy('cedentes', 'cedente_contas', 'sacados');

-- Registers are changed, never deleted (a blocked one stays, with its history); a cedente's accounts are replaced.
GRANT SELECT, INSERT ON cedentes, sacados TO fct_servico;
GRANT UPDATE (razao_social, nome_fantasia, email, telefone, municipio_ibge, uf, perfil_iof, motivo_isencao, limite_centavos, estado,
  atualizado_em) ON cedentes TO fct_servico;
GRANT UPDATE (razao_social, nome_fantasia, email, telefone, municipio_ibge, uf, limite_centavos, estado, atualizado_em) ON sacados TO fct_servico;
GRANT SELECT, INSERT, DELETE ON cedente_contas TO fct_servico;

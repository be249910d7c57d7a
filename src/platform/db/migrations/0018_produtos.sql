-- The customer's pricing terms (produto.md §2.2): a product and its versions. A version never changes once made:
-- a change is a new version (versao + 1), and an operation records the version it was priced with. Rates are
-- fractions held exactly (numeric), money integers of centavos; `dias_float` maps a título's type to 0–10 days.
-- A customer's data: cliente_id, forced row-level security; versions are never updated or deleted (no grant, and
-- a trigger for the owner).
CREATE TABLE produtos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id_externo text CHECK (id_externo ~ '^[!-~]{1,64}$'),
  nome text NOT NULL CHECK (length(nome) BETWEEN 2 AND 200
    AND nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  -- The latest version's number: a new version takes this row's lock to number itself.
  versao_atual integer NOT NULL DEFAULT 1 CHECK (versao_atual >= 1),
  criado_em timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT produtos_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX produtos_lista_idx ON produtos (cliente_id, seq);

CREATE TABLE produto_versoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  versao integer NOT NULL CHECK (versao >= 1),
  base text NOT NULL CHECK (base IN ('simples_30', 'composta_30')),
  taxa_mensal numeric(14, 12) NOT NULL CHECK (taxa_mensal > 0 AND taxa_mensal < 1),
  taxa_ad_valorem numeric(14, 12) NOT NULL CHECK (taxa_ad_valorem >= 0 AND taxa_ad_valorem < 1),
  tarifa_por_titulo_centavos bigint NOT NULL CHECK (tarifa_por_titulo_centavos BETWEEN 0 AND 9007199254740991),
  tac_centavos bigint NOT NULL CHECK (tac_centavos BETWEEN 0 AND 9007199254740991),
  dias_float jsonb NOT NULL CHECK (jsonb_typeof(dias_float) = 'object'),
  iof text NOT NULL CHECK (iof IN ('calcular', 'isento')),
  motivo_isencao text CHECK (length(motivo_isencao) BETWEEN 3 AND 500
    AND motivo_isencao !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  criado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((iof = 'isento') = (motivo_isencao IS NOT NULL)),
  FOREIGN KEY (cliente_id, produto_id) REFERENCES produtos (cliente_id, id),
  UNIQUE (cliente_id, produto_id, versao)
);

CREATE TRIGGER produto_versoes_imutaveis BEFORE UPDATE OR DELETE ON produto_versoes
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('a product version never changes: make a new version');
CREATE TRIGGER produto_versoes_sem_truncate BEFORE TRUNCATE ON produto_versoes
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('a product version never changes: make a new version');

SELECT aplica_tenancy('produtos', 'produto_versoes');

GRANT SELECT, INSERT ON produtos, produto_versoes TO fct_servico;
GRANT UPDATE (versao_atual) ON produtos TO fct_servico;

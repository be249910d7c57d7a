-- The customer's own holidays (produto.md §2.3): a municipal or state holiday of a sacado's place, or a day the
-- customer closes. National bank holidays are computed, never stored (src/modules/calendar/). A holiday is for one
-- municipality (its IBGE code) or one state, never both; a customer's data: cliente_id, forced row-level
-- security. Removing one is allowed (a wrong day typed in), and audited with its row's id.
CREATE TABLE feriados (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  data date NOT NULL CHECK (data BETWEEN date '2000-01-01' AND date '2199-12-31'),
  descricao text NOT NULL CHECK (length(descricao) BETWEEN 2 AND 200
    AND descricao !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  municipio_ibge text CHECK (municipio_ibge ~ '^[0-9]{7}$'),
  uf text CHECK (uf IN ('AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI',
    'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO')),
  criado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((municipio_ibge IS NULL) <> (uf IS NULL)),
  CONSTRAINT feriados_unico UNIQUE NULLS NOT DISTINCT (cliente_id, data, municipio_ibge, uf)
);
CREATE INDEX feriados_data_idx ON feriados (cliente_id, data);

SELECT aplica_tenancy('feriados');

GRANT SELECT, INSERT, DELETE ON feriados TO fct_servico;

-- CNAB remessas (issue 33: "POST /api/cnab/remessas (conta_cobranca_id) makes the file of the account's pending
-- charges and instructions … with the account's next sequence"), and the sacado's address its segment Q prints.
-- - A remessa is kept as written (ASCII text, CR LF), with its SHA-256, its NSA (the account's proxima_remessa,
--   taken under the account's lock, so it only goes up and no two files share one), and its counts.
-- - What it carried is a row each in remessa_itens: a charge's entry or an instruction. Each is unique there: a
--   charge is registered by one file, an instruction sent by one, whatever two requests at once do.
-- - Never changed, never deleted (a file sent to a bank is a fact).
ALTER TABLE sacados
  ADD COLUMN logradouro text CHECK (length(logradouro) BETWEEN 1 AND 200),
  ADD COLUMN numero text CHECK (length(numero) BETWEEN 1 AND 20),
  ADD COLUMN complemento text CHECK (length(complemento) BETWEEN 1 AND 100),
  ADD COLUMN bairro text CHECK (length(bairro) BETWEEN 1 AND 100),
  ADD COLUMN cep text CHECK (cep ~ '^[0-9]{8}$'),
  ADD COLUMN cidade text CHECK (length(cidade) BETWEEN 1 AND 100),
  ADD CONSTRAINT sacados_endereco_imprimivel CHECK (concat(logradouro, numero, complemento, bairro, cidade)
    !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]');
GRANT UPDATE (logradouro, numero, complemento, bairro, cep, cidade) ON sacados TO fct_servico;

CREATE TABLE remessas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  conta_cobranca_id uuid NOT NULL,
  nsa integer NOT NULL CHECK (nsa >= 1),
  layout text NOT NULL CHECK (layout IN ('240', '400')),
  nome_arquivo text NOT NULL CHECK (nome_arquivo ~ '^[A-Za-z0-9_.-]{1,64}$'),
  conteudo text NOT NULL CHECK (conteudo ~ '^[\x20-\x7e\r\n]+$'),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  registros integer NOT NULL CHECK (registros >= 2),
  cobrancas integer NOT NULL CHECK (cobrancas >= 0),
  instrucoes integer NOT NULL CHECK (instrucoes >= 0),
  valor_centavos bigint NOT NULL CHECK (valor_centavos >= 0),
  criado_em timestamptz NOT NULL DEFAULT now(),
  CHECK (cobrancas + instrucoes >= 1),
  CONSTRAINT remessas_nsa_unico UNIQUE (cliente_id, conta_cobranca_id, nsa),
  FOREIGN KEY (cliente_id, conta_cobranca_id) REFERENCES contas_cobranca (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX remessas_lista_idx ON remessas (cliente_id, seq);

CREATE TABLE remessa_itens (
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  remessa_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  cobranca_id uuid,
  instrucao_id uuid,
  PRIMARY KEY (cliente_id, remessa_id, ordem),
  CHECK ((cobranca_id IS NULL) <> (instrucao_id IS NULL)),
  CONSTRAINT remessa_itens_cobranca_unica UNIQUE (cliente_id, cobranca_id),
  CONSTRAINT remessa_itens_instrucao_unica UNIQUE (cliente_id, instrucao_id),
  FOREIGN KEY (cliente_id, remessa_id) REFERENCES remessas (cliente_id, id),
  FOREIGN KEY (cliente_id, cobranca_id) REFERENCES cobrancas (cliente_id, id),
  FOREIGN KEY (cliente_id, instrucao_id) REFERENCES cobranca_instrucoes (cliente_id, id)
);

SELECT aplica_tenancy('remessas');
SELECT aplica_tenancy('remessa_itens');

GRANT SELECT, INSERT ON remessas, remessa_itens TO fct_servico;

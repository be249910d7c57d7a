-- The signed assignment term of an operation, kept as the file the parties signed (issue 32 item 4): the service
-- computes its SHA-256 (the operation's termo_sha256 then names these very bytes) and serves it back for download.
-- One file per operation: sent again before the formalization, it replaces the one before; after it, only the
-- formalized term's bytes are taken. The size is bounded by TERMO_MAX_BYTES in the service; the CHECK below is the
-- database's own ceiling, so no setting can make a row of gigabytes.
CREATE TABLE operacao_termos (
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  operacao_id uuid NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  tipo text NOT NULL CHECK (tipo ~ '^[a-z0-9!#$&^_.+-]{1,127}/[a-z0-9!#$&^_.+-]{1,127}$'),
  nome_arquivo text CHECK (length(nome_arquivo) BETWEEN 1 AND 200
    AND nome_arquivo !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069/\\"]'),
  tamanho_bytes integer NOT NULL CHECK (tamanho_bytes BETWEEN 1 AND 104857600),
  conteudo bytea NOT NULL CHECK (octet_length(conteudo) = tamanho_bytes),
  enviado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cliente_id, operacao_id),
  FOREIGN KEY (cliente_id, operacao_id) REFERENCES operacoes (cliente_id, id)
);
-- The bytes are read only when downloaded: kept out of line, uncompressed (a PDF or an image compresses little).
ALTER TABLE operacao_termos ALTER COLUMN conteudo SET STORAGE EXTERNAL;

SELECT aplica_tenancy('operacao_termos');
GRANT SELECT, INSERT ON operacao_termos TO fct_servico;
GRANT UPDATE (sha256, tipo, nome_arquivo, tamanho_bytes, conteudo, enviado_em) ON operacao_termos TO fct_servico;

-- The cessionária's CNPJ printed on the borderô is the customer's: the operator may now set it after the customer
-- was made (`clientes documento`), as the customer's own transaction (row security admits its row alone).
GRANT UPDATE (documento) ON clientes TO fct_servico;

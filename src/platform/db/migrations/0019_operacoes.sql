-- Operations (produto.md §2.5): a borderô of títulos bought from one cedente, its quotes, and the payment of its
-- net amount. Every state change is a conditional UPDATE of the operation's row (estado = the state it leaves),
-- so of two concurrent transitions one wins and the other finds the new state. A customer's data: cliente_id,
-- forced row-level security, grants exactly as used.
CREATE TABLE operacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id_externo text CHECK (id_externo ~ '^[!-~]{1,64}$'),
  cedente_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  data_operacao date NOT NULL CHECK (data_operacao BETWEEN date '2000-01-01' AND date '2199-12-31'),
  estado text NOT NULL DEFAULT 'rascunho'
    CHECK (estado IN ('rascunho', 'cotada', 'aceita', 'formalizada', 'em_desembolso', 'desembolsada', 'cancelada')),
  -- The latest quote's number (0: none yet); the one accepted, once accepted.
  cotacao_versao integer NOT NULL DEFAULT 0 CHECK (cotacao_versao >= 0),
  cotacao_aceita integer CHECK (cotacao_aceita BETWEEN 1 AND cotacao_versao),
  aceita_em timestamptz,
  -- The signed assignment term (formalização): its hash, when it was signed, and who signed.
  termo_sha256 text CHECK (termo_sha256 ~ '^[0-9a-f]{64}$'),
  assinado_em timestamptz,
  signatarios jsonb CHECK (jsonb_typeof(signatarios) = 'array'),
  motivo_cancelamento text CHECK (length(motivo_cancelamento) BETWEEN 3 AND 500),
  cancelada_em timestamptz,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((estado IN ('aceita', 'formalizada', 'em_desembolso', 'desembolsada')) <= (cotacao_aceita IS NOT NULL)),
  CHECK ((estado IN ('formalizada', 'em_desembolso', 'desembolsada')) <= (termo_sha256 IS NOT NULL)),
  CHECK ((estado = 'cancelada') = (motivo_cancelamento IS NOT NULL)),
  FOREIGN KEY (cliente_id, cedente_id) REFERENCES cedentes (cliente_id, id),
  FOREIGN KEY (cliente_id, produto_id) REFERENCES produtos (cliente_id, id),
  CONSTRAINT operacoes_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX operacoes_lista_idx ON operacoes (cliente_id, seq);
CREATE INDEX operacoes_cedente_idx ON operacoes (cliente_id, cedente_id, seq);

-- A título of an operation. Removed from a draft (DELETE), otherwise kept with its state; `saldo_centavos` is
-- what is still to be received of an acquired one (its face value until release II's receipts).
CREATE TABLE titulos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id_externo text CHECK (id_externo ~ '^[!-~]{1,64}$'),
  operacao_id uuid NOT NULL,
  -- The cedente is the operation's: kept here for the exposure (a cedente's open balance) without a join.
  cedente_id uuid NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('duplicata_mercantil', 'duplicata_servico', 'cheque', 'nota_promissoria', 'ccb', 'cte')),
  numero text NOT NULL CHECK (length(numero) BETWEEN 1 AND 60
    AND numero !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  sacado_id uuid NOT NULL,
  emissao date NOT NULL CHECK (emissao BETWEEN date '2000-01-01' AND date '2199-12-31'),
  vencimento date NOT NULL CHECK (vencimento BETWEEN date '2000-01-01' AND date '2199-12-31'),
  valor_face_centavos bigint NOT NULL CHECK (valor_face_centavos BETWEEN 1 AND 9007199254740991),
  chave_nfe text CHECK (chave_nfe ~ '^[0-9]{44}$'),
  estado text NOT NULL DEFAULT 'ofertado' CHECK (estado IN ('ofertado', 'adquirido', 'liquidado', 'recomprado', 'baixado', 'cancelado')),
  saldo_centavos bigint NOT NULL CHECK (saldo_centavos BETWEEN 0 AND valor_face_centavos),
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CHECK (emissao < vencimento),
  FOREIGN KEY (cliente_id, operacao_id) REFERENCES operacoes (cliente_id, id),
  FOREIGN KEY (cliente_id, cedente_id) REFERENCES cedentes (cliente_id, id),
  FOREIGN KEY (cliente_id, sacado_id) REFERENCES sacados (cliente_id, id),
  CONSTRAINT titulos_id_externo_unico UNIQUE (cliente_id, id_externo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX titulos_operacao_idx ON titulos (cliente_id, operacao_id, seq);
CREATE INDEX titulos_lista_idx ON titulos (cliente_id, seq);
-- One invoice is never financed twice: a key in any título not cancelled (of a live operation) is unique. The
-- index, not a read before the insert, decides between two operations adding the same key at once.
CREATE UNIQUE INDEX titulos_chave_nfe_viva ON titulos (cliente_id, chave_nfe) WHERE chave_nfe IS NOT NULL AND estado <> 'cancelado';
-- The exposure of a cedente and of a sacado: the open balance of their acquired títulos.
CREATE INDEX titulos_exposicao_cedente_idx ON titulos (cliente_id, cedente_id) INCLUDE (saldo_centavos) WHERE estado = 'adquirido';
CREATE INDEX titulos_exposicao_sacado_idx ON titulos (cliente_id, sacado_id) INCLUDE (saldo_centavos) WHERE estado = 'adquirido';

-- A quote: the priced borderô exactly as answered (lines and totals in `calculo`), with the totals the acceptance
-- posts held as columns. Never changed: a new quote is the next `versao`.
CREATE TABLE cotacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  operacao_id uuid NOT NULL,
  versao integer NOT NULL CHECK (versao >= 1),
  produto_versao integer NOT NULL CHECK (produto_versao >= 1),
  valida_ate timestamptz NOT NULL,
  valor_face_centavos bigint NOT NULL CHECK (valor_face_centavos BETWEEN 0 AND 9007199254740991),
  desagio_centavos bigint NOT NULL CHECK (desagio_centavos >= 0),
  ad_valorem_centavos bigint NOT NULL CHECK (ad_valorem_centavos >= 0),
  tarifas_centavos bigint NOT NULL CHECK (tarifas_centavos >= 0),
  tac_centavos bigint NOT NULL CHECK (tac_centavos >= 0),
  iof_centavos bigint NOT NULL CHECK (iof_centavos >= 0),
  valor_liquido_centavos bigint NOT NULL,
  -- json, not jsonb: the answer's own order of fields is kept, as it was answered.
  calculo json NOT NULL CHECK (json_typeof(calculo) = 'object'),
  criado_em timestamptz NOT NULL DEFAULT now(),
  CHECK (valor_face_centavos = desagio_centavos + ad_valorem_centavos + tarifas_centavos + tac_centavos + iof_centavos + valor_liquido_centavos),
  FOREIGN KEY (cliente_id, operacao_id) REFERENCES operacoes (cliente_id, id),
  UNIQUE (cliente_id, operacao_id, versao)
);
CREATE TRIGGER cotacoes_imutaveis BEFORE UPDATE OR DELETE ON cotacoes
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('a quote never changes: quote again');
CREATE TRIGGER cotacoes_sem_truncate BEFORE TRUNCATE ON cotacoes
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('a quote never changes: quote again');

-- A payment of an operation's net amount to one of its cedente's accounts (a copy: the cedente's list may change
-- later), asked by one person and approved by another (produto.md §1, "Two people for money out").
CREATE TABLE desembolsos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  operacao_id uuid NOT NULL,
  cedente_id uuid NOT NULL,
  valor_centavos bigint NOT NULL CHECK (valor_centavos BETWEEN 1 AND 9007199254740991),
  banco text NOT NULL CHECK (banco ~ '^[0-9]{3}$'),
  agencia text NOT NULL CHECK (agencia ~ '^[0-9]{1,5}$'),
  conta text NOT NULL CHECK (conta ~ '^[0-9]{1,13}$'),
  digito text NOT NULL CHECK (digito ~ '^[0-9X]{1,2}$'),
  titular_documento text NOT NULL,
  estado text NOT NULL DEFAULT 'aguardando_aprovacao' CHECK (estado IN ('aguardando_aprovacao', 'aprovado', 'pago', 'falhou', 'cancelado')),
  -- Who asked: the credential that did (`solicitado_por_tipo` token or usuario, its id) and the person behind it (null: an operator's token).
  solicitado_por_tipo text NOT NULL CHECK (solicitado_por_tipo IN ('usuario', 'token')),
  solicitado_por uuid NOT NULL,
  solicitante_usuario_id uuid,
  aprovado_por_usuario_id uuid,
  aprovado_em timestamptz,
  id_transacao text CHECK (length(id_transacao) BETWEEN 1 AND 100 AND id_transacao ~ '^[!-~]+$'),
  pago_em timestamptz,
  motivo_falha text CHECK (length(motivo_falha) BETWEEN 3 AND 500),
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  -- The approver is a person, and not the one who asked (the service checks it first, with its own answer).
  CHECK (aprovado_por_usuario_id IS DISTINCT FROM solicitante_usuario_id OR aprovado_por_usuario_id IS NULL),
  CHECK ((estado IN ('aprovado', 'pago')) <= (aprovado_por_usuario_id IS NOT NULL)),
  CHECK ((estado = 'pago') = (id_transacao IS NOT NULL AND pago_em IS NOT NULL)),
  CHECK ((estado = 'falhou') = (motivo_falha IS NOT NULL)),
  FOREIGN KEY (cliente_id, operacao_id) REFERENCES operacoes (cliente_id, id),
  FOREIGN KEY (cliente_id, cedente_id, titular_documento) REFERENCES cedentes (cliente_id, id, documento),
  UNIQUE (cliente_id, id)
);
-- At most one payment of an operation is open or made: twenty requests at once make one.
CREATE UNIQUE INDEX desembolsos_um_por_operacao ON desembolsos (cliente_id, operacao_id)
  WHERE estado IN ('aguardando_aprovacao', 'aprovado', 'pago');
CREATE INDEX desembolsos_operacao_idx ON desembolsos (cliente_id, operacao_id, seq);

-- The exposure of each cedente and sacado (produto.md §2.1): the open balance of its acquired títulos. The view
-- runs as its caller (security_invoker), so row-level security still limits it to the caller's customer.
CREATE VIEW exposicoes WITH (security_invoker = true) AS
  SELECT cliente_id, 'cedente' AS tipo, cedente_id AS cadastro_id, sum(saldo_centavos)::bigint AS exposicao_centavos
    FROM titulos WHERE estado = 'adquirido' GROUP BY cliente_id, cedente_id
  UNION ALL
  SELECT cliente_id, 'sacado', sacado_id, sum(saldo_centavos)::bigint
    FROM titulos WHERE estado = 'adquirido' GROUP BY cliente_id, sacado_id;

SELECT aplica_tenancy('operacoes', 'titulos', 'cotacoes', 'desembolsos');

GRANT SELECT, INSERT ON operacoes, titulos, cotacoes, desembolsos TO fct_servico;
GRANT SELECT ON exposicoes TO fct_servico;
GRANT UPDATE (estado, cotacao_versao, cotacao_aceita, aceita_em, termo_sha256, assinado_em, signatarios, motivo_cancelamento, cancelada_em,
  atualizado_em) ON operacoes TO fct_servico;
GRANT UPDATE (estado, saldo_centavos, atualizado_em) ON titulos TO fct_servico;
-- A título leaves a draft by being removed.
GRANT DELETE ON titulos TO fct_servico;
GRANT UPDATE (estado, aprovado_por_usuario_id, aprovado_em, id_transacao, pago_em, motivo_falha, atualizado_em) ON desembolsos TO fct_servico;

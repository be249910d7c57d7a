-- What the bank returned (issue 33: CNAB retornos), applied once. A retorno file is kept as its lines, one row a
-- título's occurrence, before any is applied: the upload stores them all or none (the file checked whole first), and
-- the application works through the pending ones in order, each line in the transaction that moves its charge, its
-- título and the ledger, so a process killed halfway resumes where it stopped and never posts a line twice.
--   * a file is applied once per account: its SHA-256 is unique per account (a second upload answers the first);
--   * a line once: an occurrence (the account's nosso número, the bank's code, its date) is applied by one line only,
--     whatever file carries it again (a unique index over the applied lines);
--   * a line the service cannot apply is kept as ignored, with the reason, never dropped.

-- The accounts a collection moves, after 0037's eleven: what the sacado paid late (juros, multa), the discounts the
-- boleto granted, and what came in that no open título was owed (a payment after the título was settled, a payment
-- above its balance), until someone says whose it is.
INSERT INTO contas_contabeis (codigo, nome, natureza, por_cedente, ordem) VALUES
  ('receita_juros_multa', 'Receita de juros e multa de cobrança', 'credora', false, 12),
  ('descontos_concedidos', 'Descontos concedidos em cobrança', 'devedora', false, 13),
  ('valores_a_identificar', 'Valores recebidos a identificar', 'credora', false, 14);

ALTER TABLE lancamentos DROP CONSTRAINT lancamentos_origem_tipo_check,
  ADD CONSTRAINT lancamentos_origem_tipo_check
    CHECK (origem_tipo IN ('operacao', 'desembolso', 'lancamento_manual', 'apropriacao_desagio', 'retorno'));

CREATE TABLE retornos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  conta_cobranca_id uuid NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  layout text NOT NULL CHECK (layout IN ('240', '400')),
  -- The bank's file number (NSA) and the day it wrote the file, as its header says.
  nsa text NOT NULL CHECK (length(nsa) <= 20),
  data_geracao date,
  bytes integer NOT NULL CHECK (bytes > 0),
  registros integer NOT NULL CHECK (registros > 0),
  titulos integer NOT NULL CHECK (titulos >= 0),
  estado text NOT NULL DEFAULT 'aplicando' CHECK (estado IN ('aplicando', 'aplicado')),
  aplicadas integer NOT NULL DEFAULT 0 CHECK (aplicadas >= 0),
  ignoradas integer NOT NULL DEFAULT 0 CHECK (ignoradas >= 0),
  criado_em timestamptz NOT NULL DEFAULT now(),
  concluido_em timestamptz,
  CHECK (aplicadas + ignoradas <= titulos),
  CHECK ((estado = 'aplicado') = (concluido_em IS NOT NULL)),
  CHECK (estado = 'aplicando' OR aplicadas + ignoradas = titulos),
  CONSTRAINT retornos_arquivo_unico UNIQUE (cliente_id, conta_cobranca_id, sha256),
  FOREIGN KEY (cliente_id, conta_cobranca_id) REFERENCES contas_cobranca (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX retornos_lista_idx ON retornos (cliente_id, seq);

CREATE TABLE retorno_linhas (
  cliente_id uuid NOT NULL,
  retorno_id uuid NOT NULL,
  -- The título's line in the file (its T segment in a 240, its detail in a 400).
  linha integer NOT NULL CHECK (linha > 0),
  conta_cobranca_id uuid NOT NULL,
  codigo text NOT NULL CHECK (codigo ~ '^[0-9A-Z]{2}$'),
  ocorrencia text NOT NULL CHECK (ocorrencia IN ('entrada_confirmada', 'entrada_rejeitada', 'liquidacao', 'liquidacao_apos_baixa',
    'liquidacao_cheque_pendente', 'cheque_compensado', 'cheque_devolvido', 'estorno_liquidacao', 'baixa', 'protesto_enviado',
    'protesto_sustado', 'protestado', 'tarifa', 'instrucao_confirmada', 'instrucao_rejeitada', 'informativa')),
  -- As the bank wrote it, and the account's sequence within it ('' where it holds none).
  nosso_numero text NOT NULL CHECK (length(nosso_numero) <= 20),
  sequencia text NOT NULL CHECK (sequencia ~ '^([1-9][0-9]{0,14})?$'),
  seu_numero text NOT NULL CHECK (length(seu_numero) <= 25),
  vencimento date,
  data_ocorrencia date,
  data_credito date,
  motivos text[] NOT NULL DEFAULT '{}',
  valor_titulo_centavos bigint NOT NULL DEFAULT 0,
  pago_centavos bigint NOT NULL DEFAULT 0,
  liquido_centavos bigint NOT NULL DEFAULT 0,
  juros_multa_centavos bigint NOT NULL DEFAULT 0,
  desconto_centavos bigint NOT NULL DEFAULT 0,
  abatimento_centavos bigint NOT NULL DEFAULT 0,
  tarifa_centavos bigint NOT NULL DEFAULT 0,
  outras_despesas_centavos bigint NOT NULL DEFAULT 0,
  outros_creditos_centavos bigint NOT NULL DEFAULT 0,
  CHECK (LEAST(valor_titulo_centavos, pago_centavos, liquido_centavos, juros_multa_centavos, desconto_centavos, abatimento_centavos,
    tarifa_centavos, outras_despesas_centavos, outros_creditos_centavos) >= 0),
  CHECK (GREATEST(valor_titulo_centavos, pago_centavos, liquido_centavos, juros_multa_centavos, desconto_centavos, abatimento_centavos,
    tarifa_centavos, outras_despesas_centavos, outros_creditos_centavos) <= 999999999999999),
  -- What became of it: applied (and what it moved), or ignored with the reason (retornos/ignored.ts names them).
  resultado text NOT NULL DEFAULT 'pendente' CHECK (resultado IN ('pendente', 'aplicada', 'ignorada')),
  motivo text CHECK (motivo ~ '^[a-z_]{2,40}$'),
  detalhe text CHECK (length(detalhe) BETWEEN 1 AND 300),
  cobranca_id uuid,
  titulo_id uuid,
  lancamento_id uuid,
  -- A liquidation's part of the título's balance and of its deságio, which a bounced cheque gives back.
  principal_centavos bigint NOT NULL DEFAULT 0 CHECK (principal_centavos >= 0),
  desagio_reconhecido_centavos bigint NOT NULL DEFAULT 0 CHECK (desagio_reconhecido_centavos >= 0),
  -- When a later line (a bounced cheque, a bank's reversal) undid this liquidation: once.
  estornada_em timestamptz,
  aplicada_em timestamptz,
  PRIMARY KEY (cliente_id, retorno_id, linha),
  CHECK ((resultado = 'ignorada') = (motivo IS NOT NULL)),
  CHECK ((resultado = 'pendente') = (aplicada_em IS NULL)),
  CHECK (resultado = 'aplicada' OR (lancamento_id IS NULL AND principal_centavos = 0 AND estornada_em IS NULL)),
  -- The file's row is written after its lines, when its trailer has been read: checked at commit.
  FOREIGN KEY (cliente_id, retorno_id) REFERENCES retornos (cliente_id, id) DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY (cliente_id, conta_cobranca_id) REFERENCES contas_cobranca (cliente_id, id),
  FOREIGN KEY (cliente_id, cobranca_id) REFERENCES cobrancas (cliente_id, id),
  FOREIGN KEY (cliente_id, lancamento_id) REFERENCES lancamentos (cliente_id, id)
);
-- An occurrence is applied once, whichever file and line carry it again.
CREATE UNIQUE INDEX retorno_linhas_uma_vez ON retorno_linhas (cliente_id, conta_cobranca_id, sequencia, codigo, coalesce(data_ocorrencia, DATE '0001-01-01'))
  WHERE resultado = 'aplicada';
CREATE INDEX retorno_linhas_pendentes_idx ON retorno_linhas (cliente_id, retorno_id, linha) WHERE resultado = 'pendente';
-- A charge's applied lines, newest last: what a bounced cheque reverses.
CREATE INDEX retorno_linhas_cobranca_idx ON retorno_linhas (cliente_id, cobranca_id) WHERE resultado = 'aplicada';

SELECT aplica_tenancy('retornos');
SELECT aplica_tenancy('retorno_linhas');

-- The application's index across customers: the files not yet applied whole, oldest first. Ids only.
CREATE FUNCTION retornos_a_aplicar(p_limite integer)
RETURNS TABLE (cliente_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.cliente_id, r.id FROM public.retornos r WHERE r.estado = 'aplicando' ORDER BY r.criado_em, r.seq
   LIMIT least(greatest(p_limite, 1), 100)
$$;
REVOKE ALL ON FUNCTION retornos_a_aplicar(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION retornos_a_aplicar(integer) TO fct_servico;

-- Never deleted; a file's lines never change what the bank said, only what became of them.
GRANT SELECT, INSERT ON retornos, retorno_linhas TO fct_servico;
GRANT UPDATE (estado, aplicadas, ignoradas, concluido_em) ON retornos TO fct_servico;
GRANT UPDATE (resultado, motivo, detalhe, cobranca_id, titulo_id, lancamento_id, principal_centavos, desagio_reconhecido_centavos, estornada_em,
  aplicada_em) ON retorno_linhas TO fct_servico;

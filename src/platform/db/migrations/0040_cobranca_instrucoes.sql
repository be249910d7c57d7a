-- Instructions after registration (issue 33: "new due date, abatimento, baixa, protestar, sustar protesto — sent by
-- the account's transport"). Each is a row, kept for ever with what the bank answered:
-- - `transporte` is the account's when it was asked: `api`, sent by the worker (outside any transaction, retried with
--   backoff while the bank is unavailable: `tentativas`, `proxima_em`, `erro`); `cnab`, carried by the next remessa.
-- - `estado`: `pendente` until sent; `enviada` once in a remessa (the retorno confirms it); `confirmada` or
--   `rejeitada` with the bank's answer (`banco_resposta`). Never deleted; what was asked never changes.
-- - A new due date only with `alteracao_vencimento`, an amount only with `abatimento`.
-- Money is not moved here: an abatimento or a baixa reaches the ledger when the bank confirms it (a later step).
CREATE TABLE cobranca_instrucoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  cobranca_id uuid NOT NULL,
  instrucao text NOT NULL CHECK (instrucao IN ('alteracao_vencimento', 'abatimento', 'baixa', 'protestar', 'sustar_protesto')),
  vencimento date,
  abatimento_centavos bigint CHECK (abatimento_centavos > 0 AND abatimento_centavos <= 9999999999),
  transporte text NOT NULL CHECK (transporte IN ('api', 'cnab')),
  estado text NOT NULL DEFAULT 'pendente' CHECK (estado IN ('pendente', 'enviada', 'confirmada', 'rejeitada')),
  tentativas integer NOT NULL DEFAULT 0 CHECK (tentativas >= 0),
  proxima_em timestamptz,
  erro text CHECK (length(erro) BETWEEN 1 AND 500),
  banco_resposta jsonb,
  -- An abatimento the bank confirmed, posted to the ledger (the cedente's conta gráfica debited): once.
  lancamento_id uuid,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT cobranca_instrucoes_vencimento CHECK ((instrucao = 'alteracao_vencimento') = (vencimento IS NOT NULL)),
  CONSTRAINT cobranca_instrucoes_abatimento CHECK ((instrucao = 'abatimento') = (abatimento_centavos IS NOT NULL)),
  -- A file carries no answer: `enviada` is a remessa's alone.
  CONSTRAINT cobranca_instrucoes_enviada CHECK (estado <> 'enviada' OR transporte = 'cnab'),
  FOREIGN KEY (cliente_id, cobranca_id) REFERENCES cobrancas (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX cobranca_instrucoes_cobranca_idx ON cobranca_instrucoes (cliente_id, cobranca_id, seq);
CREATE INDEX cobranca_instrucoes_pendentes_idx ON cobranca_instrucoes (proxima_em) WHERE estado = 'pendente';

SELECT aplica_tenancy('cobranca_instrucoes');

GRANT SELECT, INSERT ON cobranca_instrucoes TO fct_servico;
GRANT UPDATE (estado, tentativas, proxima_em, erro, banco_resposta, atualizado_em, lancamento_id) ON cobranca_instrucoes TO fct_servico;

-- The worker's index across customers: the `api` instructions due now, each only once every earlier instruction of
-- its charge is answered (a charge's instructions reach the bank in the order they were asked). Ids only.
CREATE FUNCTION instrucoes_a_enviar(p_limite integer, p_agora timestamptz)
RETURNS TABLE (cliente_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT i.cliente_id, i.id
    FROM public.cobranca_instrucoes i
   WHERE i.estado = 'pendente' AND i.transporte = 'api' AND (i.proxima_em IS NULL OR i.proxima_em <= p_agora)
     AND NOT EXISTS (SELECT 1 FROM public.cobranca_instrucoes e
                      WHERE e.cliente_id = i.cliente_id AND e.cobranca_id = i.cobranca_id AND e.estado = 'pendente' AND e.seq < i.seq)
   ORDER BY i.proxima_em NULLS FIRST, i.seq
   LIMIT least(greatest(p_limite, 1), 1000)
$$;
REVOKE ALL ON FUNCTION instrucoes_a_enviar(integer, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION instrucoes_a_enviar(integer, timestamptz) TO fct_servico;

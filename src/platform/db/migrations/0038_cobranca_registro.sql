-- A charge registered at its bank through the bank's API (issue 33): the registration worker takes the charges
-- waiting (`a_registrar`) under accounts whose transport is `api`, asks the bank, and records the answer. A bank that
-- is down or slow loses nothing: the charge stays waiting, with its attempts counted and the time of the next one
-- (exponential backoff with jitter), and the last failure's reason for the back office.
ALTER TABLE cobrancas
  ADD COLUMN registro_tentativas integer NOT NULL DEFAULT 0 CHECK (registro_tentativas >= 0),
  ADD COLUMN registro_proxima_em timestamptz,
  ADD COLUMN registro_erro text CHECK (length(registro_erro) BETWEEN 1 AND 500);

CREATE INDEX cobrancas_a_registrar_idx ON cobrancas (registro_proxima_em) WHERE estado = 'a_registrar';

-- The worker's index across customers: which charges wait for their bank's API now, oldest first. Ids only.
CREATE FUNCTION cobrancas_a_registrar(p_limite integer, p_agora timestamptz)
RETURNS TABLE (cliente_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.cliente_id, c.id
    FROM public.cobrancas c
    JOIN public.contas_cobranca k ON k.cliente_id = c.cliente_id AND k.id = c.conta_cobranca_id
   WHERE c.estado = 'a_registrar' AND k.transporte = 'api' AND k.confirmada_em IS NOT NULL AND k.ativa
     AND (c.registro_proxima_em IS NULL OR c.registro_proxima_em <= p_agora)
   ORDER BY c.registro_proxima_em NULLS FIRST, c.seq
   LIMIT least(greatest(p_limite, 1), 1000)
$$;
REVOKE ALL ON FUNCTION cobrancas_a_registrar(integer, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cobrancas_a_registrar(integer, timestamptz) TO fct_servico;

GRANT UPDATE (registro_tentativas, registro_proxima_em, registro_erro) ON cobrancas TO fct_servico;

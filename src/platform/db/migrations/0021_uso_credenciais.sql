-- A credentialed request costs one indexed read before its handler (issue 19, performance): the lookups of a token
-- and of a session also answer when they were last used, so the service writes the use only when it is news (a
-- token's first use, with its audit row; a use more than a minute after the last one recorded, or from another
-- address), not on every request. A function's result type cannot change in place: dropped and made again, with
-- its grants.
DROP FUNCTION autentica_token(text);
CREATE FUNCTION autentica_token(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, escopos text[], expira_em timestamptz, revogado_em timestamptz,
               dpop_jkt text, cliente_estado text, usuario_estado text, usuario_papel text,
               primeiro_uso_em timestamptz, ultimo_uso_em timestamptz, ultimo_uso_ip text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.id, t.cliente_id, t.usuario_id, t.escopos, t.expira_em, t.revogado_em, t.dpop_jkt, c.estado, u.estado, u.papel,
         t.primeiro_uso_em, t.ultimo_uso_em, host(t.ultimo_uso_ip)
    FROM public.tokens t
    JOIN public.clientes c ON c.id = t.cliente_id
    LEFT JOIN public.usuarios u ON u.id = t.usuario_id
   WHERE t.hash = p_hash
$$;

DROP FUNCTION autentica_sessao(text);
CREATE FUNCTION autentica_sessao(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, expira_ociosa_em timestamptz, expira_em timestamptz, encerrada_em timestamptz,
               cliente_estado text, usuario_estado text, usuario_papel text, ultimo_acesso_em timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.id, s.cliente_id, s.usuario_id, s.expira_ociosa_em, s.expira_em, s.encerrada_em, c.estado, u.estado, u.papel, s.ultimo_acesso_em
    FROM public.sessoes s
    JOIN public.clientes c ON c.id = s.cliente_id
    JOIN public.usuarios u ON u.id = s.usuario_id
   WHERE s.hash = p_hash
$$;

REVOKE ALL ON FUNCTION autentica_token(text), autentica_sessao(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION autentica_token(text), autentica_sessao(text) TO fct_servico;

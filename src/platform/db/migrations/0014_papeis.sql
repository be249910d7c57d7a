-- A person's role in their customer (produto.md §1, "Who may do what"): administrador (everything, people and
-- tokens), operador (registers and operations), aprovador (approves payments, reads everything), consulta (reads).
-- The people there before roles existed could do everything, so they keep it: the default is administrador,
-- which the operator's invitation also gives (the first person of a customer administers it). The credential
-- checks read the role on every request (below), so a change takes effect at the next request of every
-- session and token of that person.
ALTER TABLE usuarios ADD COLUMN papel text NOT NULL DEFAULT 'administrador'
  CHECK (papel IN ('administrador', 'operador', 'aprovador', 'consulta'));

GRANT SELECT (papel), UPDATE (papel) ON usuarios TO fct_servico;

-- The lookups of a token and of a session answer the role of the person behind it too (none for a token the
-- operator made). A function's result type cannot change in place: dropped and made again, with its grants.
DROP FUNCTION autentica_token(text);
CREATE FUNCTION autentica_token(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, escopos text[], expira_em timestamptz, revogado_em timestamptz,
               dpop_jkt text, cliente_estado text, usuario_estado text, usuario_papel text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.id, t.cliente_id, t.usuario_id, t.escopos, t.expira_em, t.revogado_em, t.dpop_jkt, c.estado, u.estado, u.papel
    FROM public.tokens t
    JOIN public.clientes c ON c.id = t.cliente_id
    LEFT JOIN public.usuarios u ON u.id = t.usuario_id
   WHERE t.hash = p_hash
$$;

DROP FUNCTION autentica_sessao(text);
CREATE FUNCTION autentica_sessao(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, expira_ociosa_em timestamptz, expira_em timestamptz, encerrada_em timestamptz,
               cliente_estado text, usuario_estado text, usuario_papel text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.id, s.cliente_id, s.usuario_id, s.expira_ociosa_em, s.expira_em, s.encerrada_em, c.estado, u.estado, u.papel
    FROM public.sessoes s
    JOIN public.clientes c ON c.id = s.cliente_id
    JOIN public.usuarios u ON u.id = s.usuario_id
   WHERE s.hash = p_hash
$$;

REVOKE ALL ON FUNCTION autentica_token(text), autentica_sessao(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION autentica_token(text), autentica_sessao(text) TO fct_servico;

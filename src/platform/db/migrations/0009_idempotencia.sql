-- Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): the answer a request with a key got, kept so that
-- the same request with the same key gets it again instead of running twice (src/platform/idempotency/). A row is written
-- in the transaction of the work it answers for, so it exists exactly when that work committed.
--
-- `escopo` is the caller (a customer's credential, or the hashed address of an anonymous client); the key is
-- the client's and means something only within it. `impressao` is the SHA-256 of the request (method, path,
-- canonical JSON of the body): the same key with another request is refused, not answered with this one.
CREATE TABLE chaves_idempotencia (
  escopo text NOT NULL,
  chave text NOT NULL,
  -- The customer of an authenticated caller; NULL for the public routes (the contact form).
  cliente_id uuid REFERENCES clientes (id),
  impressao text NOT NULL,
  status smallint NOT NULL CHECK (status BETWEEN 200 AND 599),
  cabecalhos jsonb NOT NULL DEFAULT '{}',
  corpo text NOT NULL,
  criada_em timestamptz NOT NULL,
  expira_em timestamptz NOT NULL,
  PRIMARY KEY (escopo, chave),
  CHECK (length(chave) BETWEEN 1 AND 255),
  CHECK (expira_em > criada_em)
);
CREATE INDEX chaves_idempotencia_expira_em_idx ON chaves_idempotencia (expira_em);

-- Forced row-level security, as on the other tables of customers (0005): in a customer's transaction only that
-- customer's keys; outside any (the public contact form) only the keys of no customer. A customer's stored
-- answers are their data, so the database, not only the scope in the key, keeps them apart.
ALTER TABLE chaves_idempotencia ENABLE ROW LEVEL SECURITY;
ALTER TABLE chaves_idempotencia FORCE ROW LEVEL SECURITY;
CREATE POLICY cliente_atual ON chaves_idempotencia
  USING (cliente_id IS NOT DISTINCT FROM nullif(current_setting('app.cliente_id', true), '')::uuid)
  WITH CHECK (cliente_id IS NOT DISTINCT FROM nullif(current_setting('app.cliente_id', true), '')::uuid);

DO $$
BEGIN
  -- The owner deletes expired keys of every customer, through purga_chaves_idempotencia below.
  EXECUTE format('CREATE POLICY dono_apaga ON chaves_idempotencia FOR DELETE TO %I USING (true)', current_user);
  EXECUTE format('CREATE POLICY dono_le ON chaves_idempotencia FOR SELECT TO %I USING (true)', current_user);
END
$$;

-- The retention scheduler's purge: the runtime role cannot see other customers' rows, so the owner deletes them.
CREATE FUNCTION purga_chaves_idempotencia(p_agora timestamptz)
RETURNS integer
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH apagadas AS (DELETE FROM public.chaves_idempotencia WHERE expira_em <= p_agora RETURNING 1)
  SELECT count(*)::integer FROM apagadas
$$;
REVOKE ALL ON FUNCTION purga_chaves_idempotencia(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purga_chaves_idempotencia(timestamptz) TO fct_servico;

-- UPDATE: an expired key not yet purged is taken again by a new request (INSERT … ON CONFLICT DO UPDATE).
GRANT SELECT, INSERT, UPDATE ON chaves_idempotencia TO fct_servico;

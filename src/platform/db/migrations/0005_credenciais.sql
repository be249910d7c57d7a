-- The credential layer's data (customers, their people, invitations, personal access tokens, web sessions, the
-- customer's audit trail), the runtime role the service serves as, and forced row-level security.
-- docs/decisions.md ("Credentials: data and tenancy") says why each piece is as it is.

-- The runtime role: owns nothing, is no superuser, bypasses no row security, belongs to no other role. Roles are
-- the cluster's, not a database's: several databases migrating at once (the test suite) race to create it, so
-- the loser's duplicate is ignored. NOLOGIN here; an operator who gives the service the role's own URL in
-- DATABASE_URL adds LOGIN and a password (README, "Credentials: the database roles").
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fct_servico') THEN
    CREATE ROLE fct_servico NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION NOINHERIT;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database's migration created it between the check and the CREATE
END
$$;

-- With a single DATABASE_URL the service logs in as the owner and switches each connection to the runtime role
-- (SET ROLE), which needs membership. Superusers have it already; an owner that may not grant it (the split
-- set-up, where DATABASE_URL logs in as fct_servico itself) does not need it.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'fct_servico', 'MEMBER') THEN
    EXECUTE format('GRANT fct_servico TO %I', current_user);
  END IF;
EXCEPTION WHEN insufficient_privilege OR unique_violation OR duplicate_object THEN
  RAISE NOTICE 'fct_servico not granted to %: give DATABASE_URL the role''s own login', current_user;
END
$$;

CREATE TABLE clientes (
  id uuid PRIMARY KEY,
  nome text NOT NULL CHECK (length(nome) BETWEEN 1 AND 200),
  -- CNPJ without punctuation: 12 digits (or, from July 2026, digits and capital letters) and 2 check digits,
  -- which the application verifies.
  documento text UNIQUE CHECK (documento ~ '^[0-9A-Z]{12}[0-9]{2}$'),
  estado text NOT NULL DEFAULT 'ativo' CHECK (estado IN ('ativo', 'suspenso')),
  criado_em timestamptz NOT NULL DEFAULT now(),
  estado_em timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE usuarios (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  -- Login finds a person by e-mail alone, so an address is unique across the platform (kept lower-cased).
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  nome text NOT NULL CHECK (length(nome) BETWEEN 1 AND 200),
  senha_hash text CHECK (senha_hash LIKE '$argon2id$%'),
  estado text NOT NULL DEFAULT 'convidado' CHECK (estado IN ('convidado', 'ativo', 'suspenso')),
  criado_em timestamptz NOT NULL DEFAULT now(),
  ativado_em timestamptz,
  CHECK (estado = 'convidado' OR senha_hash IS NOT NULL),
  UNIQUE (cliente_id, id)
);

CREATE TABLE convites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  usuario_id uuid NOT NULL,
  hash text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  criado_em timestamptz NOT NULL DEFAULT now(),
  expira_em timestamptz NOT NULL,
  usado_em timestamptz,
  CHECK (expira_em > criado_em),
  FOREIGN KEY (cliente_id, usuario_id) REFERENCES usuarios (cliente_id, id)
);

CREATE TABLE tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  -- Who made it; null when the operator did (CLI).
  usuario_id uuid,
  nome text NOT NULL CHECK (length(nome) BETWEEN 1 AND 100),
  hash text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  escopos text[] NOT NULL CHECK (cardinality(escopos) > 0),
  criado_em timestamptz NOT NULL DEFAULT now(),
  expira_em timestamptz NOT NULL,
  primeiro_uso_em timestamptz,
  ultimo_uso_em timestamptz,
  ultimo_uso_ip inet,
  revogado_em timestamptz,
  -- RFC 7638 thumbprint (SHA-256, base64url) of the key a DPoP-bound token must be presented with.
  dpop_jkt text CHECK (dpop_jkt ~ '^[A-Za-z0-9_-]{43}$'),
  CHECK (expira_em > criado_em),
  FOREIGN KEY (cliente_id, usuario_id) REFERENCES usuarios (cliente_id, id)
);
CREATE INDEX tokens_cliente_idx ON tokens (cliente_id, criado_em);

CREATE TABLE sessoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  usuario_id uuid NOT NULL,
  hash text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  criada_em timestamptz NOT NULL DEFAULT now(),
  ultimo_acesso_em timestamptz NOT NULL DEFAULT now(),
  -- Idle expiry (pushed forward by each use, never past the absolute one) and absolute expiry.
  expira_ociosa_em timestamptz NOT NULL,
  expira_em timestamptz NOT NULL,
  encerrada_em timestamptz,
  CHECK (expira_ociosa_em <= expira_em),
  FOREIGN KEY (cliente_id, usuario_id) REFERENCES usuarios (cliente_id, id)
);
CREATE INDEX sessoes_usuario_idx ON sessoes (cliente_id, usuario_id) WHERE encerrada_em IS NULL;

-- The customer's own audit trail: who (a person, a token or the operator) did what, in which request, from an
-- address kept only as an HMAC (the salt of `instalacao`). Never a secret, a password or a token.
CREATE TABLE auditoria_cliente (
  id bigserial PRIMARY KEY,
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  em timestamptz NOT NULL DEFAULT now(),
  ator_tipo text NOT NULL CHECK (ator_tipo IN ('usuario', 'token', 'operador')),
  ator_id uuid,
  acao text NOT NULL CHECK (acao ~ '^[a-z_]+\.[a-z_]+$'),
  -- What the action was about (a token, a person, a session), and why it was refused when it was.
  alvo_id uuid,
  motivo text CHECK (motivo ~ '^[a-z_]{1,64}$'),
  request_id text,
  ip_hash text,
  CHECK ((ator_tipo = 'operador') = (ator_id IS NULL))
);
CREATE INDEX auditoria_cliente_idx ON auditoria_cliente (cliente_id, id);
CREATE TRIGGER auditoria_cliente_sem_update_delete BEFORE UPDATE OR DELETE ON auditoria_cliente
  FOR EACH ROW EXECUTE FUNCTION auditoria_somente_insercao();
CREATE TRIGGER auditoria_cliente_sem_truncate BEFORE TRUNCATE ON auditoria_cliente
  FOR EACH STATEMENT EXECUTE FUNCTION auditoria_somente_insercao();

-- A revocation, a used invitation, an ended session or a first use, once written, stays: no UPDATE (a bug, an
-- injected statement) brings a revoked token back. The columns are the trigger's arguments.
CREATE FUNCTION credencial_definitivo() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  coluna text;
BEGIN
  FOREACH coluna IN ARRAY TG_ARGV LOOP
    IF to_jsonb(OLD) -> coluna <> 'null'::jsonb AND to_jsonb(NEW) -> coluna IS DISTINCT FROM to_jsonb(OLD) -> coluna THEN
      RAISE EXCEPTION '%.% e definitivo', TG_TABLE_NAME, coluna USING ERRCODE = 'integrity_constraint_violation';
    END IF;
  END LOOP;
  RETURN NEW;
END
$$;
CREATE TRIGGER convites_definitivo BEFORE UPDATE ON convites FOR EACH ROW EXECUTE FUNCTION credencial_definitivo('usado_em');
CREATE TRIGGER tokens_definitivo BEFORE UPDATE ON tokens FOR EACH ROW EXECUTE FUNCTION credencial_definitivo('revogado_em', 'primeiro_uso_em');
CREATE TRIGGER sessoes_definitivo BEFORE UPDATE ON sessoes FOR EACH ROW EXECUTE FUNCTION credencial_definitivo('encerrada_em');

-- Forced row-level security: a query sees and writes only the rows of the customer named by `app.cliente_id`,
-- set per transaction (withTenant, src/platform/tenancy/tenancy.ts). Without it nothing: current_setting(…, true) is NULL
-- before any set_config and '' after a transaction that set it, and nullif turns both into a NULL that equals
-- nothing. FORCE holds the owner to the same rule; the owner alone may read every row (`dono_le`), which is what
-- the SECURITY DEFINER functions below run as (it could turn row security off on its own tables anyway).
ALTER TABLE clientes ENABLE ROW LEVEL SECURITY;
ALTER TABLE clientes FORCE ROW LEVEL SECURITY;
CREATE POLICY cliente_atual ON clientes
  USING (id = nullif(current_setting('app.cliente_id', true), '')::uuid)
  WITH CHECK (id = nullif(current_setting('app.cliente_id', true), '')::uuid);

DO $$
DECLARE
  tabela text;
BEGIN
  FOREACH tabela IN ARRAY ARRAY['usuarios', 'convites', 'tokens', 'sessoes', 'auditoria_cliente'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tabela);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tabela);
    EXECUTE format($p$CREATE POLICY cliente_atual ON %I
      USING (cliente_id = nullif(current_setting('app.cliente_id', true), '')::uuid)
      WITH CHECK (cliente_id = nullif(current_setting('app.cliente_id', true), '')::uuid)$p$, tabela);
  END LOOP;
  FOREACH tabela IN ARRAY ARRAY['clientes', 'usuarios', 'convites', 'tokens', 'sessoes', 'auditoria_cliente'] LOOP
    EXECUTE format('CREATE POLICY dono_le ON %I FOR SELECT TO %I USING (true)', tabela, current_user);
  END LOOP;
END
$$;

-- Authentication before the customer is known, and the operator's two views across customers: each function
-- finds one thing and returns only what its caller needs. SECURITY DEFINER runs them as the owner; the fixed
-- search_path keeps a caller's objects (a temporary table named like ours) out of them.
CREATE FUNCTION autentica_token(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, escopos text[], expira_em timestamptz, revogado_em timestamptz,
               dpop_jkt text, cliente_estado text, usuario_estado text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.id, t.cliente_id, t.usuario_id, t.escopos, t.expira_em, t.revogado_em, t.dpop_jkt, c.estado, u.estado
    FROM public.tokens t
    JOIN public.clientes c ON c.id = t.cliente_id
    LEFT JOIN public.usuarios u ON u.id = t.usuario_id
   WHERE t.hash = p_hash
$$;

CREATE FUNCTION autentica_sessao(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, expira_ociosa_em timestamptz, expira_em timestamptz, encerrada_em timestamptz,
               cliente_estado text, usuario_estado text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.id, s.cliente_id, s.usuario_id, s.expira_ociosa_em, s.expira_em, s.encerrada_em, c.estado, u.estado
    FROM public.sessoes s
    JOIN public.clientes c ON c.id = s.cliente_id
    JOIN public.usuarios u ON u.id = s.usuario_id
   WHERE s.hash = p_hash
$$;

CREATE FUNCTION autentica_login(p_email text)
RETURNS TABLE (id uuid, cliente_id uuid, senha_hash text, usuario_estado text, cliente_estado text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT u.id, u.cliente_id, u.senha_hash, u.estado, c.estado
    FROM public.usuarios u
    JOIN public.clientes c ON c.id = u.cliente_id
   WHERE u.email = lower(btrim(p_email))
$$;

CREATE FUNCTION autentica_convite(p_hash text)
RETURNS TABLE (id uuid, cliente_id uuid, usuario_id uuid, expira_em timestamptz, usado_em timestamptz, cliente_estado text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT v.id, v.cliente_id, v.usuario_id, v.expira_em, v.usado_em, c.estado
    FROM public.convites v
    JOIN public.clientes c ON c.id = v.cliente_id
   WHERE v.hash = p_hash
$$;

-- The operator's index of customers (no person, token, session or audit row of any of them).
CREATE FUNCTION operador_clientes()
RETURNS TABLE (id uuid, nome text, documento text, estado text, criado_em timestamptz, estado_em timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.id, c.nome, c.documento, c.estado, c.criado_em, c.estado_em FROM public.clientes c ORDER BY c.criado_em, c.id
$$;

-- Which customer a token belongs to, for `tokens revogar ID`: the revocation itself runs in that customer's context.
CREATE FUNCTION operador_cliente_do_token(p_token uuid)
RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.cliente_id FROM public.tokens t WHERE t.id = p_token
$$;

REVOKE ALL ON FUNCTION autentica_token(text), autentica_sessao(text), autentica_login(text), autentica_convite(text),
  operador_clientes(), operador_cliente_do_token(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION autentica_token(text), autentica_sessao(text), autentica_login(text), autentica_convite(text),
  operador_clientes(), operador_cliente_do_token(uuid) TO fct_servico;

-- The runtime role's grants: exactly what the service does, table by table; it never deletes. On the credential
-- tables only the columns that change after creation may be updated, and a password hash cannot be read back
-- (autentica_login compares it). Token, session and invitation digests may be read: they are SHA-256 of 190
-- random bits, which give nothing back.
GRANT SELECT ON schema_migracoes, instalacao TO fct_servico;
GRANT SELECT, INSERT, UPDATE ON contato, outbox, manutencao TO fct_servico;
GRANT SELECT, INSERT ON entrega_tentativa, auditoria TO fct_servico;
GRANT USAGE ON SEQUENCE contato_id_seq, outbox_id_seq, manutencao_id_seq, entrega_tentativa_id_seq, auditoria_id_seq,
  auditoria_cliente_id_seq TO fct_servico;

GRANT SELECT, INSERT ON clientes, convites, tokens, sessoes, auditoria_cliente TO fct_servico;
GRANT SELECT (id, cliente_id, email, nome, estado, criado_em, ativado_em), INSERT ON usuarios TO fct_servico;
GRANT UPDATE (estado, estado_em) ON clientes TO fct_servico;
GRANT UPDATE (nome, senha_hash, estado, ativado_em) ON usuarios TO fct_servico;
GRANT UPDATE (usado_em) ON convites TO fct_servico;
GRANT UPDATE (primeiro_uso_em, ultimo_uso_em, ultimo_uso_ip, revogado_em) ON tokens TO fct_servico;
GRANT UPDATE (ultimo_acesso_em, expira_ociosa_em, encerrada_em) ON sessoes TO fct_servico;

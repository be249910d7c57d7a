-- Contact messages, their delivery outbox, the append-only audit trail, maintenance windows.

CREATE TABLE instalacao (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- Per-installation salt for hashing client IPs in the audit trail: a bare hash of an IPv4
  -- address is reversible by enumeration, a salted one is not.
  sal_ip text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text)
);
INSERT INTO instalacao DEFAULT VALUES;

CREATE TABLE contato (
  id bigserial PRIMARY KEY,
  protocolo text NOT NULL UNIQUE,
  criado_em timestamptz NOT NULL DEFAULT now(),
  assunto text NOT NULL,
  destino text NOT NULL,
  nome text,
  email text,
  mensagem text,
  empresa text,
  telefone text,
  site text,
  -- Fingerprint of the normalized payload: a double click within the window answers the first protocolo.
  impressao text NOT NULL,
  request_id text NOT NULL,
  ip_hash text NOT NULL,
  dados_apagados_em timestamptz
);
CREATE INDEX contato_impressao_idx ON contato (impressao, criado_em);
CREATE INDEX contato_criado_em_idx ON contato (criado_em);

CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  contato_id bigint NOT NULL REFERENCES contato (id),
  protocolo text NOT NULL UNIQUE,
  destino text NOT NULL,
  estado text NOT NULL DEFAULT 'pendente'
    CHECK (estado IN ('pendente', 'enviando', 'enviado', 'sandbox', 'falhou')),
  tentativas integer NOT NULL DEFAULT 0,
  proxima_tentativa_em timestamptz NOT NULL DEFAULT now(),
  ultimo_erro text,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  enviado_em timestamptz
);
CREATE INDEX outbox_fila_idx ON outbox (proxima_tentativa_em) WHERE estado = 'pendente';

CREATE TABLE auditoria (
  id bigserial PRIMARY KEY,
  em timestamptz NOT NULL DEFAULT now(),
  acao text NOT NULL,
  protocolo text,
  assunto text,
  request_id text,
  ip_hash text
);

CREATE FUNCTION auditoria_somente_insercao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'auditoria e somente insercao (% recusado)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER auditoria_sem_update_delete BEFORE UPDATE OR DELETE ON auditoria
  FOR EACH ROW EXECUTE FUNCTION auditoria_somente_insercao();
CREATE TRIGGER auditoria_sem_truncate BEFORE TRUNCATE ON auditoria
  FOR EACH STATEMENT EXECUTE FUNCTION auditoria_somente_insercao();

CREATE TABLE manutencao (
  id bigserial PRIMARY KEY,
  inicio timestamptz,
  fim timestamptz,
  mensagem text,
  declarada_em timestamptz NOT NULL DEFAULT now(),
  encerrada_em timestamptz,
  CHECK (inicio IS NULL OR fim IS NULL OR fim > inicio)
);

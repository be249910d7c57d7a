-- Confirmation with the sacado (issue 34, produto.md §3): the buyer asks the debtor whether the título is owed, and
-- tells it of the assignment (Código Civil art. 290). A título's `confirmacao_estado` is the last confirmation's
-- result; `confirmacoes` keeps every one: a one-time link e-mailed to the sacado (its token stored as a SHA-256
-- only), a person's record of a call or an e-mail with its evidence file (its SHA-256 computed by the service), or
-- an approver's waiver. Nothing here is ever deleted: a new confirmation supersedes the open one.

ALTER TABLE produto_versoes ADD COLUMN exige_confirmacao boolean NOT NULL DEFAULT false;

ALTER TABLE titulos ADD COLUMN confirmacao_estado text NOT NULL DEFAULT 'pendente'
  CHECK (confirmacao_estado IN ('pendente', 'em_andamento', 'confirmado', 'parcial', 'contestado', 'sem_contato', 'dispensado'));
GRANT UPDATE (confirmacao_estado) ON titulos TO fct_servico;
CREATE INDEX titulos_confirmacao_idx ON titulos (cliente_id, confirmacao_estado, seq);

CREATE TABLE confirmacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  titulo_id uuid NOT NULL,
  meio text NOT NULL CHECK (meio IN ('link', 'telefone', 'email', 'dispensa')),
  -- `substituida`: a newer confirmation of the título was started before this one was answered.
  estado text NOT NULL CHECK (estado IN ('em_andamento', 'confirmado', 'parcial', 'contestado', 'sem_contato', 'dispensado', 'substituida')),
  -- The link's token, as its SHA-256: the token itself is only in the e-mail.
  token_sha256 bytea UNIQUE CHECK (octet_length(token_sha256) = 32),
  destinatario text CHECK (length(destinatario) BETWEEN 3 AND 254),
  expira_em timestamptz,
  respondido_em timestamptz,
  -- Where the sacado's answer came from (evidence of the notice), and what its browser said it was.
  resposta_ip inet,
  resposta_agente text CHECK (length(resposta_agente) <= 300),
  -- The sacado's reason (a contest), or the person's note.
  observacao text CHECK (length(observacao) BETWEEN 1 AND 2000
    AND observacao !~ '[\u0001-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]'),
  valor_confirmado_centavos bigint CHECK (valor_confirmado_centavos > 0),
  evidencia_sha256 text CHECK (evidencia_sha256 ~ '^[0-9a-f]{64}$'),
  evidencia_tipo text CHECK (evidencia_tipo ~ '^[a-z0-9!#$&^_.+-]{1,127}/[a-z0-9!#$&^_.+-]{1,127}$'),
  evidencia_nome text CHECK (length(evidencia_nome) BETWEEN 1 AND 200
    AND evidencia_nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069/\\"]'),
  evidencia bytea CHECK (octet_length(evidencia) BETWEEN 1 AND 10485760),
  -- The person who started or recorded it (null: a token with no person).
  usuario_id uuid,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((meio = 'link') = (token_sha256 IS NOT NULL)),
  CHECK (meio <> 'link' OR (destinatario IS NOT NULL AND expira_em IS NOT NULL)),
  CHECK (meio = 'link' OR estado <> 'em_andamento'),
  CHECK (meio <> 'link' OR estado IN ('em_andamento', 'confirmado', 'contestado', 'substituida')),
  CHECK ((meio = 'dispensa') = (estado = 'dispensado')),
  CHECK ((estado = 'parcial') = (valor_confirmado_centavos IS NOT NULL)),
  -- A person's record of a confirmation, partial or contest carries its evidence; a failed contact may not have any.
  CHECK (meio NOT IN ('telefone', 'email') OR estado = 'sem_contato' OR evidencia IS NOT NULL),
  CHECK ((evidencia IS NULL) = (evidencia_sha256 IS NULL) AND (evidencia IS NULL) = (evidencia_tipo IS NULL)),
  CHECK (meio <> 'dispensa' OR observacao IS NOT NULL),
  CHECK (estado <> 'contestado' OR observacao IS NOT NULL),
  FOREIGN KEY (cliente_id, titulo_id) REFERENCES titulos (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX confirmacoes_titulo_idx ON confirmacoes (cliente_id, titulo_id, seq);
-- One open link per título: starting another supersedes it first.
CREATE UNIQUE INDEX confirmacoes_uma_aberta ON confirmacoes (cliente_id, titulo_id) WHERE estado = 'em_andamento';
ALTER TABLE confirmacoes ALTER COLUMN evidencia SET STORAGE EXTERNAL;

SELECT aplica_tenancy('confirmacoes');
GRANT SELECT, INSERT ON confirmacoes TO fct_servico;
GRANT UPDATE (estado, atualizado_em) ON confirmacoes TO fct_servico;

-- The events of a título's other states (its confirmation here, its place in the registry in 0050), ordered with the
-- título's other events. The trigger's arguments: the state's column, the event type's prefix, then the columns the
-- event carries besides the título's ids; `estado_anterior` is the column's value before.
CREATE FUNCTION evento_situacao_titulo() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_novo jsonb := to_jsonb(NEW);
BEGIN
  PERFORM evento_registra(NEW.cliente_id, TG_ARGV[1] || (v_novo ->> TG_ARGV[0]), 'titulo:' || NEW.id,
    jsonb_build_object('titulo_id', NEW.id, 'id_externo', NEW.id_externo, 'operacao_id', NEW.operacao_id, 'numero', NEW.numero,
      'estado_anterior', to_jsonb(OLD) -> TG_ARGV[0])
    || (SELECT jsonb_object_agg(c, v_novo -> c) FROM unnest(TG_ARGV[2:]) AS c));
  RETURN NULL;
END
$$;
CREATE TRIGGER titulos_evento_confirmacao AFTER UPDATE OF confirmacao_estado ON titulos FOR EACH ROW
  WHEN (NEW.confirmacao_estado IS DISTINCT FROM OLD.confirmacao_estado)
  EXECUTE FUNCTION evento_situacao_titulo('confirmacao_estado', 'confirmacao.', 'confirmacao_estado');

-- The sacado's page reads its link by the token's hash, with no customer yet in the transaction: what the page shows
-- and nothing else, and only while the link is open (answered, superseded, expired or unknown: no row, the same).
-- `p_agora` is the service's clock, which set the link's expiry.
CREATE FUNCTION confirmacao_por_token(p_hash bytea, p_agora timestamptz)
RETURNS TABLE (tipo text, numero text, emissao date, vencimento date, valor_face_centavos bigint, cedente_razao_social text,
  cedente_documento text, sacado_razao_social text, cessionario_razao_social text, cessionario_documento text, expira_em timestamptz,
  adquirido boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.tipo, t.numero, t.emissao, t.vencimento, t.valor_face_centavos, ce.razao_social, ce.documento, s.razao_social,
         cl.nome, cl.documento, c.expira_em, t.estado <> 'ofertado'
    FROM public.confirmacoes c
    JOIN public.titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
    JOIN public.cedentes ce ON ce.cliente_id = t.cliente_id AND ce.id = t.cedente_id
    JOIN public.sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
    JOIN public.clientes cl ON cl.id = c.cliente_id
   WHERE c.token_sha256 = p_hash AND c.estado = 'em_andamento' AND c.expira_em > p_agora
$$;
REVOKE ALL ON FUNCTION confirmacao_por_token(bytea, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION confirmacao_por_token(bytea, timestamptz) TO fct_servico;

-- The sacado's answer: once, while the link is open. It acts as the link's customer (row security then admits that
-- customer's rows alone, for the título's state and its event). False when the link is not open. Its search path
-- holds public after pg_catalog: the título's triggers it fires (the event, evento_registra) name their tables unqualified,
-- and the service's role cannot create objects in public (PostgreSQL 15 and later grant it to nobody).
CREATE FUNCTION confirmacao_responde(p_hash bytea, p_resposta text, p_observacao text, p_ip inet, p_agente text, p_agora timestamptz)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_cliente uuid;
  v_id uuid;
  v_titulo uuid;
BEGIN
  IF p_resposta NOT IN ('confirmado', 'contestado') THEN RAISE EXCEPTION 'resposta inválida' USING ERRCODE = '22023'; END IF;
  SELECT c.cliente_id, c.id, c.titulo_id INTO v_cliente, v_id, v_titulo FROM public.confirmacoes c
   WHERE c.token_sha256 = p_hash AND c.estado = 'em_andamento' AND c.expira_em > p_agora;
  IF v_id IS NULL THEN RETURN false; END IF;
  PERFORM set_config('app.cliente_id', v_cliente::text, true);
  -- The título first, as every other change of its confirmation takes it (a person's record, a waiver): never the
  -- other way round, which would deadlock with them.
  PERFORM 1 FROM public.titulos WHERE cliente_id = v_cliente AND id = v_titulo FOR UPDATE;
  UPDATE public.confirmacoes SET estado = p_resposta, observacao = p_observacao, respondido_em = p_agora, resposta_ip = p_ip,
         resposta_agente = left(p_agente, 300), atualizado_em = p_agora
   WHERE cliente_id = v_cliente AND id = v_id AND estado = 'em_andamento';
  IF NOT FOUND THEN RETURN false; END IF;
  UPDATE public.titulos SET confirmacao_estado = p_resposta, atualizado_em = p_agora WHERE cliente_id = v_cliente AND id = v_titulo;
  RETURN true;
END
$$;
REVOKE ALL ON FUNCTION confirmacao_responde(bytea, text, text, inet, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION confirmacao_responde(bytea, text, text, inet, text, timestamptz) TO fct_servico;

-- Events and webhooks (issue 34). An event is written by the database itself, in the transaction of the change it
-- tells (a trigger on the table that changed), so no path of the code (the API, MCP, the CLI, a job, a retorno) can
-- change a resource without its event, nor write an event for a change that rolled back. Each event is queued at
-- once for every live endpoint of its customer that wants its type (webhook_entregas: the webhooks' outbox); the
-- delivery worker claims those rows and POSTs them, at least once and in order per resource.
--
-- An event is thin: the resource's id, its state and the few figures the change is about. The receiver reads the
-- whole resource from the API when it needs it (the API's representation is the one the code renders; the database
-- does not render a second one).

CREATE TABLE eventos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  tipo text NOT NULL CHECK (tipo ~ '^[a-z_]{1,40}\.[a-z_]{1,40}$'),
  -- What the order is kept for: `titulo:<id>`, `operacao:<id>`…
  recurso text NOT NULL CHECK (recurso ~ '^[a-z_]{1,40}:[0-9a-f-]{36}$'),
  dados jsonb NOT NULL CHECK (jsonb_typeof(dados) = 'object'),
  criado_em timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cliente_id, id)
);
CREATE INDEX eventos_lista_idx ON eventos (cliente_id, seq);
-- A título falls due once: the daily job's event is written once however often it runs.
CREATE UNIQUE INDEX eventos_titulo_vencido_unico ON eventos (cliente_id, recurso) WHERE tipo = 'titulo.vencido';

CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  url text NOT NULL CHECK (length(url) BETWEEN 10 AND 2000 AND url ~ '^https?://'),
  descricao text CHECK (length(descricao) BETWEEN 1 AND 200),
  eventos text[] NOT NULL CHECK (cardinality(eventos) BETWEEN 1 AND 50),
  -- The signing secret, encrypted (AES-256-GCM under the service's key, webhooks/secret-box.ts): it must be read to sign.
  segredo_cifrado text NOT NULL CHECK (segredo_cifrado ~ '^v1\.'),
  -- The secret before the last rotation, valid for signing until `segredo_anterior_ate` (both signatures are sent).
  segredo_anterior_cifrado text CHECK (segredo_anterior_cifrado ~ '^v1\.'),
  segredo_anterior_ate timestamptz,
  ativo boolean NOT NULL DEFAULT true,
  -- Why it is off: the customer turned it off, or a day of failed deliveries did.
  motivo_desativacao text CHECK (motivo_desativacao IN ('cliente', 'falhas')),
  desativado_em timestamptz,
  -- Since when every delivery has failed (null: the last one succeeded).
  falhando_desde timestamptz,
  excluido_em timestamptz,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((segredo_anterior_cifrado IS NULL) = (segredo_anterior_ate IS NULL)),
  CHECK (ativo = (motivo_desativacao IS NULL)),
  CHECK (ativo = (desativado_em IS NULL)),
  CHECK (excluido_em IS NULL OR NOT ativo),
  UNIQUE (cliente_id, id)
);
CREATE INDEX webhooks_lista_idx ON webhooks (cliente_id, seq) WHERE excluido_em IS NULL;
-- What every change asks: the customer's live endpoints.
CREATE INDEX webhooks_ativos_idx ON webhooks (cliente_id) WHERE ativo OR motivo_desativacao = 'falhas';

CREATE TABLE webhook_entregas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  webhook_id uuid NOT NULL,
  evento_id uuid NOT NULL,
  evento_seq bigint NOT NULL,
  recurso text NOT NULL,
  -- `retida`: held while its endpoint is off, out of the worker's way (the claim reads `pendente` alone); it becomes
  -- `pendente` again, due at once, when the endpoint is turned on.
  estado text NOT NULL DEFAULT 'pendente' CHECK (estado IN ('pendente', 'enviando', 'entregue', 'cancelada', 'retida')),
  tentativas integer NOT NULL DEFAULT 0 CHECK (tentativas >= 0),
  proxima_em timestamptz NOT NULL,
  -- A redelivery asked by hand (the first delivery of the event stays as it was).
  manual boolean NOT NULL DEFAULT false,
  ultimo_status integer CHECK (ultimo_status BETWEEN 100 AND 599),
  ultimo_erro text CHECK (length(ultimo_erro) <= 500),
  entregue_em timestamptz,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  CHECK ((estado = 'entregue') = (entregue_em IS NOT NULL)),
  FOREIGN KEY (cliente_id, webhook_id) REFERENCES webhooks (cliente_id, id),
  FOREIGN KEY (cliente_id, evento_id) REFERENCES eventos (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX webhook_entregas_fila_idx ON webhook_entregas (proxima_em, evento_seq) WHERE estado = 'pendente';
CREATE INDEX webhook_entregas_enviando_idx ON webhook_entregas (atualizado_em) WHERE estado = 'enviando';
-- What keeps a resource's order: the earlier deliveries still open of the same endpoint and resource.
CREATE INDEX webhook_entregas_ordem_idx ON webhook_entregas (webhook_id, recurso, evento_seq) WHERE estado IN ('pendente', 'enviando', 'retida');
CREATE INDEX webhook_entregas_retidas_idx ON webhook_entregas (webhook_id) WHERE estado = 'retida';
CREATE INDEX webhook_entregas_lista_idx ON webhook_entregas (cliente_id, webhook_id, seq);

CREATE TABLE webhook_tentativas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cliente_id uuid NOT NULL,
  entrega_id uuid NOT NULL,
  numero integer NOT NULL CHECK (numero >= 1),
  em timestamptz NOT NULL,
  status_http integer CHECK (status_http BETWEEN 100 AND 599),
  latencia_ms integer NOT NULL CHECK (latencia_ms >= 0),
  erro text CHECK (length(erro) <= 500),
  -- The receiver's answer, its first characters only.
  resposta text CHECK (length(resposta) <= 1000),
  FOREIGN KEY (cliente_id, entrega_id) REFERENCES webhook_entregas (cliente_id, id)
);
CREATE INDEX webhook_tentativas_entrega_idx ON webhook_tentativas (cliente_id, entrega_id, id);

SELECT aplica_tenancy('eventos');
SELECT aplica_tenancy('webhooks');
SELECT aplica_tenancy('webhook_entregas');
SELECT aplica_tenancy('webhook_tentativas');

-- Events and attempts are never changed; an endpoint is never deleted (its log stays), only marked so.
GRANT SELECT, INSERT ON eventos, webhooks, webhook_entregas, webhook_tentativas TO fct_servico;
GRANT UPDATE (url, descricao, eventos, segredo_cifrado, segredo_anterior_cifrado, segredo_anterior_ate, ativo, motivo_desativacao, desativado_em,
  falhando_desde, excluido_em, atualizado_em) ON webhooks TO fct_servico;
GRANT UPDATE (estado, tentativas, proxima_em, ultimo_status, ultimo_erro, entregue_em, atualizado_em) ON webhook_entregas TO fct_servico;

-- The worker claims across customers (below): the schema's owner may change a delivery's state whoever's it is.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY dono_reserva ON webhook_entregas FOR UPDATE TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;

-- Writes an event of the customer and queues it for each endpoint of the customer that wants its type (`tipo` itself,
-- its family `operacao.*`, or every event `*`): a live one, or one a day of failures turned off (its deliveries wait
-- for it to be turned on again: at least once holds through a receiver's outage). One the customer turned off or
-- deleted gets none. The caller's transaction is the change's.
CREATE FUNCTION evento_registra(p_cliente uuid, p_tipo text, p_recurso text, p_dados jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid;
  v_seq bigint;
BEGIN
  -- Written for delivery: a customer with no live endpoint has nothing to write (a retorno of 100,000 lines would
  -- otherwise write 200,000 events nobody receives).
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.cliente_id = p_cliente AND (w.ativo OR w.motivo_desativacao = 'falhas') AND w.excluido_em IS NULL)
  THEN RETURN; END IF;
  INSERT INTO eventos (cliente_id, tipo, recurso, dados) VALUES (p_cliente, p_tipo, p_recurso, p_dados)
    ON CONFLICT DO NOTHING RETURNING id, seq INTO v_id, v_seq;
  IF v_id IS NULL THEN RETURN; END IF;
  INSERT INTO webhook_entregas (cliente_id, webhook_id, evento_id, evento_seq, recurso, proxima_em, estado)
    SELECT w.cliente_id, w.id, v_id, v_seq, p_recurso, clock_timestamp(), CASE WHEN w.ativo THEN 'pendente' ELSE 'retida' END FROM webhooks w
     WHERE w.cliente_id = p_cliente AND (w.ativo OR w.motivo_desativacao = 'falhas') AND w.excluido_em IS NULL
       AND (p_tipo = ANY (w.eventos) OR split_part(p_tipo, '.', 1) || '.*' = ANY (w.eventos) OR '*' = ANY (w.eventos));
END
$$;

-- New deliveries, and an endpoint turned on again, wake the worker (one notification per statement).
CREATE FUNCTION webhook_avisa() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhooks', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_entregas_nova AFTER INSERT ON webhook_entregas FOR EACH STATEMENT EXECUTE FUNCTION webhook_avisa();
CREATE TRIGGER webhooks_reativado AFTER UPDATE OF ativo ON webhooks FOR EACH STATEMENT EXECUTE FUNCTION webhook_avisa();

-- The events of each resource: its creation and each change of its state.
CREATE FUNCTION evento_operacao() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_tipo text;
BEGIN
  IF TG_OP = 'INSERT' THEN v_tipo := 'operacao.criada';
  ELSIF NEW.estado IS DISTINCT FROM OLD.estado THEN
    v_tipo := CASE NEW.estado WHEN 'rascunho' THEN 'operacao.reaberta' ELSE 'operacao.' || NEW.estado END;
  ELSIF NEW.cotacao_versao <> OLD.cotacao_versao THEN v_tipo := 'operacao.cotada';
  ELSE RETURN NULL;
  END IF;
  PERFORM evento_registra(NEW.cliente_id, v_tipo, 'operacao:' || NEW.id, jsonb_build_object(
    'id', NEW.id, 'id_externo', NEW.id_externo, 'estado', NEW.estado,
    'estado_anterior', CASE WHEN TG_OP = 'UPDATE' THEN OLD.estado END,
    'cedente_id', NEW.cedente_id, 'data_operacao', NEW.data_operacao, 'cotacao_versao', NEW.cotacao_versao));
  RETURN NULL;
END
$$;
CREATE TRIGGER operacoes_evento AFTER INSERT OR UPDATE OF estado, cotacao_versao ON operacoes
  FOR EACH ROW EXECUTE FUNCTION evento_operacao();

-- The other resources' events, one function for all: the trigger's arguments are the resource (`desembolso`, the
-- ordering key's prefix), the event type's prefix, the type's name at creation, then the columns the event carries;
-- a change of state is the prefix and the new state (`desembolso.pago`, `cnab.retorno_aplicado`). Which changes count
-- is each trigger's WHEN.
CREATE FUNCTION evento_estado() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_linha jsonb := to_jsonb(NEW);
BEGIN
  PERFORM evento_registra(NEW.cliente_id,
    TG_ARGV[1] || CASE WHEN TG_OP = 'INSERT' THEN TG_ARGV[2] ELSE NEW.estado END,
    TG_ARGV[0] || ':' || NEW.id,
    (SELECT jsonb_object_agg(c, v_linha -> c) FROM unnest(TG_ARGV[3:]) AS c)
      || jsonb_build_object('estado_anterior', CASE WHEN TG_OP = 'UPDATE' THEN OLD.estado END));
  RETURN NULL;
END
$$;
CREATE TRIGGER desembolsos_evento_criado AFTER INSERT ON desembolsos FOR EACH ROW
  EXECUTE FUNCTION evento_estado('desembolso', 'desembolso.', 'solicitado', 'id', 'operacao_id', 'cedente_id', 'valor_centavos', 'estado', 'id_transacao');
CREATE TRIGGER desembolsos_evento AFTER UPDATE OF estado ON desembolsos FOR EACH ROW WHEN (NEW.estado IS DISTINCT FROM OLD.estado)
  EXECUTE FUNCTION evento_estado('desembolso', 'desembolso.', '', 'id', 'operacao_id', 'cedente_id', 'valor_centavos', 'estado', 'id_transacao');
CREATE TRIGGER cobrancas_evento_criada AFTER INSERT ON cobrancas FOR EACH ROW
  EXECUTE FUNCTION evento_estado('cobranca', 'cobranca.', 'criada', 'id', 'titulo_id', 'conta_cobranca_id', 'nosso_numero', 'valor_centavos',
    'vencimento', 'estado');
CREATE TRIGGER cobrancas_evento AFTER UPDATE OF estado ON cobrancas FOR EACH ROW WHEN (NEW.estado IS DISTINCT FROM OLD.estado)
  EXECUTE FUNCTION evento_estado('cobranca', 'cobranca.', '', 'id', 'titulo_id', 'conta_cobranca_id', 'nosso_numero', 'valor_centavos',
    'vencimento', 'estado');
CREATE TRIGGER titulos_evento AFTER UPDATE OF estado ON titulos FOR EACH ROW
  WHEN (NEW.estado = 'liquidado' AND OLD.estado IS DISTINCT FROM 'liquidado')
  EXECUTE FUNCTION evento_estado('titulo', 'titulo.', '', 'id', 'id_externo', 'operacao_id', 'numero', 'valor_face_centavos', 'saldo_centavos',
    'vencimento', 'estado');
CREATE TRIGGER retornos_evento AFTER UPDATE OF estado ON retornos FOR EACH ROW
  WHEN (NEW.estado = 'aplicado' AND OLD.estado IS DISTINCT FROM 'aplicado')
  EXECUTE FUNCTION evento_estado('retorno', 'cnab.retorno_', '', 'id', 'conta_cobranca_id', 'layout', 'nsa', 'sha256', 'titulos', 'aplicadas',
    'ignoradas', 'estado');

-- The worker's claim, across customers: the next delivery that may go now, marked `enviando` with its attempt counted
-- (FOR UPDATE SKIP LOCKED: two workers never take the same one). A lease run out first (a process killed
-- mid-delivery; it has waited longest), then a due one, each read through its own partial index in its order, so
-- the checks run row by row until one passes instead of over the whole queue (one condition joining both with OR
-- was a scan and a sort of every delivery for every claim). A due one may go when its endpoint is live, no earlier
-- event of the same resource is still open for that endpoint (the order per resource), and its endpoint has fewer
-- than `p_por_endpoint` deliveries in flight, its customer fewer than `p_por_cliente` (a slow endpoint, or a customer's
-- several, hold that many of the worker's slots, never all: the other customers' deliveries go on).
-- Everything the send needs comes back with it. Every time of the deliveries (due, leases, retries, a secret's grace)
-- is the database's clock: one clock for every instance, whatever each machine's says.
CREATE FUNCTION webhook_reserva(p_lease_ms integer, p_por_endpoint integer, p_por_cliente integer)
RETURNS TABLE (id uuid, cliente_id uuid, webhook_id uuid, tentativas integer, url text, segredo_cifrado text, segredo_anterior_cifrado text,
  evento_id uuid, tipo text, criado_em timestamptz, dados jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_agora timestamptz := clock_timestamp();
  v_vencido timestamptz := clock_timestamp() - make_interval(secs => p_lease_ms / 1000.0);
  v_cheios uuid[];
  v_clientes_cheios uuid[];
  v_ocupados uuid[];
  v_so_ociosos boolean;
  v_id uuid;
BEGIN
  -- One claim at a time across the cluster (each takes milliseconds): the shares below count what the claims before
  -- this one took, committed, so concurrent slots cannot each see room and overshoot them.
  PERFORM pg_advisory_xact_lock(hashtextextended('webhook_reserva', 0));
  SELECT d.id INTO v_id FROM public.webhook_entregas d
   WHERE d.estado = 'enviando' AND d.atualizado_em < v_vencido
     AND EXISTS (SELECT 1 FROM public.webhooks w WHERE w.id = d.webhook_id AND w.ativo)
   ORDER BY d.atualizado_em
   LIMIT 1 FOR UPDATE OF d SKIP LOCKED;
  IF v_id IS NULL THEN
    v_cheios := ARRAY(SELECT f.webhook_id FROM public.webhook_entregas f WHERE f.estado = 'enviando' AND f.atualizado_em >= v_vencido
                       GROUP BY f.webhook_id HAVING count(*) >= p_por_endpoint);
    v_clientes_cheios := ARRAY(SELECT f.cliente_id FROM public.webhook_entregas f WHERE f.estado = 'enviando' AND f.atualizado_em >= v_vencido
                                GROUP BY f.cliente_id HAVING count(*) >= p_por_cliente);
    v_ocupados := ARRAY(SELECT DISTINCT f.cliente_id FROM public.webhook_entregas f WHERE f.estado = 'enviando' AND f.atualizado_em >= v_vencido);
    -- Two passes of one read: first the customers with no try in hand, then every customer within its share. However
    -- many slots other customers' slow receivers hold, the next one to free serves an idle customer (its wait is one
    -- timeout, not their backlog's).
    FOREACH v_so_ociosos IN ARRAY ARRAY[true, false] LOOP
      SELECT d.id INTO v_id FROM public.webhook_entregas d
       WHERE d.estado = 'pendente' AND d.proxima_em <= v_agora
         AND d.webhook_id <> ALL (v_cheios) AND d.cliente_id <> ALL (v_clientes_cheios)
         AND (NOT v_so_ociosos OR d.cliente_id <> ALL (v_ocupados))
         AND EXISTS (SELECT 1 FROM public.webhooks w WHERE w.id = d.webhook_id AND w.ativo)
         AND NOT EXISTS (SELECT 1 FROM public.webhook_entregas p
                          WHERE p.webhook_id = d.webhook_id AND p.recurso = d.recurso AND p.evento_seq < d.evento_seq
                            AND p.estado IN ('pendente', 'enviando'))
       ORDER BY d.proxima_em, d.evento_seq
       LIMIT 1 FOR UPDATE OF d SKIP LOCKED;
      EXIT WHEN v_id IS NOT NULL;
    END LOOP;
  END IF;
  IF v_id IS NULL THEN RETURN; END IF;
  RETURN QUERY
  WITH reservada AS (
    UPDATE public.webhook_entregas e SET estado = 'enviando', tentativas = e.tentativas + 1, atualizado_em = v_agora
     WHERE e.id = v_id
    RETURNING e.id, e.cliente_id, e.webhook_id, e.tentativas, e.evento_id)
  SELECT r.id, r.cliente_id, r.webhook_id, r.tentativas, w.url, w.segredo_cifrado,
         CASE WHEN w.segredo_anterior_ate > v_agora THEN w.segredo_anterior_cifrado END,
         v.id, v.tipo, v.criado_em, v.dados
    FROM reservada r
    JOIN public.webhooks w ON w.cliente_id = r.cliente_id AND w.id = r.webhook_id
    JOIN public.eventos v ON v.cliente_id = r.cliente_id AND v.id = r.evento_id;
END
$$;
REVOKE ALL ON FUNCTION webhook_reserva(integer, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION webhook_reserva(integer, integer, integer) TO fct_servico;

-- The títulos past their calendar due date with no `titulo.vencido` event yet, of customers with a live endpoint,
-- across customers, for the daily job (webhooks/overdue.ts), which moves each due date to its business day at the
-- sacado's place before it writes the event. Ids and what that needs only.
CREATE FUNCTION titulos_vencidos_sem_evento(p_hoje date, p_limite integer)
RETURNS TABLE (cliente_id uuid, id uuid, vencimento date, municipio_ibge text, uf text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.cliente_id, t.id, t.vencimento, s.municipio_ibge, s.uf
    FROM public.titulos t
    JOIN public.sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
   WHERE t.estado = 'adquirido' AND t.saldo_centavos > 0 AND t.vencimento < p_hoje
     AND EXISTS (SELECT 1 FROM public.webhooks w WHERE w.cliente_id = t.cliente_id AND (w.ativo OR w.motivo_desativacao = 'falhas'))
     AND NOT EXISTS (SELECT 1 FROM public.eventos e WHERE e.cliente_id = t.cliente_id AND e.tipo = 'titulo.vencido' AND e.recurso = 'titulo:' || t.id)
   ORDER BY t.vencimento, t.cliente_id, t.id
   LIMIT least(greatest(p_limite, 1), 10000)
$$;
REVOKE ALL ON FUNCTION titulos_vencidos_sem_evento(date, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION titulos_vencidos_sem_evento(date, integer) TO fct_servico;

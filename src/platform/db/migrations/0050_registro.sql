-- The registry of duplicatas escriturais (issue 34; Lei 13.775/2018, Res. BCB 540): before buying a duplicata the
-- buyer queries its registration (who holds it, its liens, its value); at acquisition the assignment is registered in
-- the buyer's name; its payment and its write-off are recorded there too. Each request to the registradora waits in
-- `registro_pedidos` (the registry's outbox: sent by the worker, retried with backoff, confirmed by polling or by the
-- registradora's callback); each título keeps an append-only mirror of what the registry said (`registro_eventos`).

ALTER TABLE produto_versoes ADD COLUMN exige_registro boolean NOT NULL DEFAULT false;

-- A título's place in the registry: `nao_consultado`; `consulta_pendente`; the last query `livre` (held by its cedente,
-- no lien, its value) or `impedido` (`registro_situacao` says why: cedida_a_terceiro, onerada, valor_divergente,
-- titular_divergente, duplicata_desconhecida); `cessao_pendente`, `cedido` or `cessao_recusada`; then `quitado`
-- (its payment recorded) or `baixado` (written off: bought back, cancelled, baixa).
ALTER TABLE titulos ADD COLUMN registro_estado text NOT NULL DEFAULT 'nao_consultado'
  CHECK (registro_estado IN ('nao_consultado', 'consulta_pendente', 'livre', 'impedido', 'cessao_pendente', 'cedido', 'cessao_recusada', 'quitado',
    'baixado'));
ALTER TABLE titulos ADD COLUMN registro_situacao text CHECK (registro_situacao ~ '^[a-z_]{1,60}$');
GRANT UPDATE (registro_estado, registro_situacao) ON titulos TO fct_servico;

CREATE TABLE registro_pedidos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  titulo_id uuid NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('consulta', 'cessao', 'pagamento', 'baixa')),
  -- `pendente`: to be sent; `processando`: taken by the registradora under `protocolo`, its result awaited (a callback,
  -- or the next poll); `concluido` or `recusado`: its answer kept in `resposta`.
  estado text NOT NULL DEFAULT 'pendente' CHECK (estado IN ('pendente', 'processando', 'concluido', 'recusado')),
  tentativas integer NOT NULL DEFAULT 0 CHECK (tentativas >= 0),
  proxima_em timestamptz NOT NULL DEFAULT now(),
  protocolo text CHECK (protocolo ~ '^[!-~]{1,100}$'),
  erro text CHECK (length(erro) <= 500),
  resposta jsonb,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  concluido_em timestamptz,
  CHECK ((estado IN ('concluido', 'recusado')) = (concluido_em IS NOT NULL)),
  CHECK (estado <> 'processando' OR protocolo IS NOT NULL),
  FOREIGN KEY (cliente_id, titulo_id) REFERENCES titulos (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX registro_pedidos_titulo_idx ON registro_pedidos (cliente_id, titulo_id, seq);
-- The worker's queue, across customers.
CREATE INDEX registro_pedidos_fila_idx ON registro_pedidos (proxima_em) WHERE estado IN ('pendente', 'processando');
-- An assignment, a payment and a write-off are asked once per título (a refused one may be asked again).
CREATE UNIQUE INDEX registro_pedidos_uma_vez ON registro_pedidos (cliente_id, titulo_id, tipo) WHERE tipo <> 'consulta' AND estado <> 'recusado';
CREATE UNIQUE INDEX registro_pedidos_protocolo ON registro_pedidos (protocolo) WHERE protocolo IS NOT NULL;

-- What the registry said, per título, in order, never changed: each answer and each result of a request.
CREATE TABLE registro_eventos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  titulo_id uuid NOT NULL,
  pedido_id uuid NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('consulta', 'cessao', 'pagamento', 'baixa')),
  -- `recebido` (taken under a protocol), `concluido`, `recusado`.
  situacao text NOT NULL CHECK (situacao IN ('recebido', 'concluido', 'recusado')),
  protocolo text,
  dados jsonb NOT NULL CHECK (jsonb_typeof(dados) = 'object'),
  criado_em timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (cliente_id, titulo_id) REFERENCES titulos (cliente_id, id),
  FOREIGN KEY (cliente_id, pedido_id) REFERENCES registro_pedidos (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX registro_eventos_titulo_idx ON registro_eventos (cliente_id, titulo_id, seq);
CREATE TRIGGER registro_eventos_imutaveis BEFORE UPDATE OR DELETE ON registro_eventos
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('the registry''s mirror is append-only');
CREATE TRIGGER registro_eventos_sem_truncate BEFORE TRUNCATE ON registro_eventos
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('the registry''s mirror is append-only');

SELECT aplica_tenancy('registro_pedidos', 'registro_eventos');
GRANT SELECT, INSERT ON registro_pedidos, registro_eventos TO fct_servico;
GRANT UPDATE (estado, tentativas, proxima_em, protocolo, erro, resposta, atualizado_em, concluido_em) ON registro_pedidos TO fct_servico;

-- The assignment is asked at acquisition, by the database: an operation accepted under a product that asks for the
-- registry queues the registration of each of its duplicatas, in the acceptance's own transaction (no path of the code
-- can acquire one without it). Written off or paid, a título registered (or being registered) in the buyer's name
-- queues its baixa or its payment the same way.
CREATE FUNCTION registro_na_aquisicao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM cotacoes c JOIN produto_versoes v ON v.cliente_id = c.cliente_id AND v.produto_id = NEW.produto_id
                   AND v.versao = c.produto_versao
                  WHERE c.cliente_id = NEW.cliente_id AND c.operacao_id = NEW.id AND c.versao = NEW.cotacao_aceita AND v.exige_registro) THEN
    RETURN NULL;
  END IF;
  INSERT INTO registro_pedidos (cliente_id, titulo_id, tipo, proxima_em, criado_em, atualizado_em)
    SELECT t.cliente_id, t.id, 'cessao', NEW.atualizado_em, NEW.atualizado_em, NEW.atualizado_em FROM titulos t
     WHERE t.cliente_id = NEW.cliente_id AND t.operacao_id = NEW.id AND t.tipo IN ('duplicata_mercantil', 'duplicata_servico');
  UPDATE titulos SET registro_estado = 'cessao_pendente'
   WHERE cliente_id = NEW.cliente_id AND operacao_id = NEW.id AND tipo IN ('duplicata_mercantil', 'duplicata_servico');
  RETURN NULL;
END
$$;
CREATE TRIGGER operacoes_registro_aquisicao AFTER UPDATE OF estado ON operacoes FOR EACH ROW
  WHEN (NEW.estado = 'aceita' AND OLD.estado IS DISTINCT FROM 'aceita')
  EXECUTE FUNCTION registro_na_aquisicao();

CREATE FUNCTION registro_no_fim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO registro_pedidos (cliente_id, titulo_id, tipo, proxima_em, criado_em, atualizado_em)
    VALUES (NEW.cliente_id, NEW.id, CASE WHEN NEW.estado = 'liquidado' THEN 'pagamento' ELSE 'baixa' END, NEW.atualizado_em, NEW.atualizado_em,
      NEW.atualizado_em)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER titulos_registro_fim AFTER UPDATE OF estado ON titulos FOR EACH ROW
  WHEN (NEW.estado IN ('liquidado', 'baixado', 'recomprado', 'cancelado') AND OLD.estado IS DISTINCT FROM NEW.estado
    AND NEW.registro_estado IN ('cessao_pendente', 'cedido'))
  EXECUTE FUNCTION registro_no_fim();

-- The events: each change of a título's place in the registry, in the título's order (the function is 0049's).
CREATE TRIGGER titulos_evento_registro AFTER UPDATE OF registro_estado ON titulos FOR EACH ROW
  WHEN (NEW.registro_estado IS DISTINCT FROM OLD.registro_estado)
  EXECUTE FUNCTION evento_situacao_titulo('registro_estado', 'registro.', 'registro_estado', 'registro_situacao');

-- The worker's claim, across customers: requests to send, or to read back, due now, each after the título's earlier
-- ones (a write-off is not sent before the assignment it undoes); ids only (each is then read and written in its
-- customer's transaction).
CREATE FUNCTION registro_pedidos_a_enviar(p_limite integer, p_agora timestamptz)
RETURNS TABLE (cliente_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.cliente_id, p.id FROM public.registro_pedidos p
   WHERE p.estado IN ('pendente', 'processando') AND p.proxima_em <= p_agora
     AND NOT EXISTS (SELECT 1 FROM public.registro_pedidos q WHERE q.cliente_id = p.cliente_id AND q.titulo_id = p.titulo_id AND q.seq < p.seq
                      AND q.estado IN ('pendente', 'processando'))
   ORDER BY p.proxima_em, p.seq
   LIMIT least(greatest(p_limite, 1), 1000)
$$;
REVOKE ALL ON FUNCTION registro_pedidos_a_enviar(integer, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registro_pedidos_a_enviar(integer, timestamptz) TO fct_servico;

-- The registradora's callback names a protocol: whose request it is (to read its result back from the registradora).
CREATE FUNCTION registro_pedido_do_protocolo(p_protocolo text)
RETURNS TABLE (cliente_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.cliente_id, p.id FROM public.registro_pedidos p WHERE p.protocolo = p_protocolo AND p.estado = 'processando'
$$;
REVOKE ALL ON FUNCTION registro_pedido_do_protocolo(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registro_pedido_do_protocolo(text) TO fct_servico;

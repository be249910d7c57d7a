-- Delivery of contact e-mails: each attempt's outcome, the sandbox copy, and a wake-up for the workers.

ALTER TABLE outbox ADD COLUMN eml text;
ALTER TABLE outbox ADD COLUMN message_id text;

CREATE TABLE entrega_tentativa (
  id bigserial PRIMARY KEY,
  outbox_id bigint NOT NULL REFERENCES outbox (id),
  em timestamptz NOT NULL DEFAULT now(),
  resultado text NOT NULL CHECK (resultado IN ('enviado', 'sandbox', 'adiado', 'falhou', 'liberado')),
  codigo_smtp integer,
  erro text
);
CREATE INDEX entrega_tentativa_outbox_idx ON entrega_tentativa (outbox_id);

-- Rows claimed by a worker that died are taken again once their lease is over.
CREATE INDEX outbox_enviando_idx ON outbox (atualizado_em) WHERE estado = 'enviando';

CREATE FUNCTION outbox_avisar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.estado = 'pendente' THEN
    PERFORM pg_notify('outbox', NEW.id::text);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER outbox_nova AFTER INSERT OR UPDATE OF estado ON outbox
  FOR EACH ROW EXECUTE FUNCTION outbox_avisar();

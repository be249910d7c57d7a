-- The outbox carries messages of several kinds. A `contato` row is rendered from its contact row, as before. Any
-- other kind (`convite`: a user's activation link) is rendered by the module that queues it, in the same
-- transaction as its work, and its parts are kept here until they are no longer needed: an invitation's link is a
-- secret, so its content is erased once sent, or once it expires (docs/decisions.md, "Messages of other kinds").
ALTER TABLE outbox ADD COLUMN tipo text NOT NULL DEFAULT 'contato';
-- Named, so the migration that adds a kind replaces it.
ALTER TABLE outbox ADD CONSTRAINT outbox_tipo_check CHECK (tipo IN ('contato', 'convite'));
ALTER TABLE outbox ALTER COLUMN contato_id DROP NOT NULL;

ALTER TABLE outbox ADD COLUMN assunto_email text;
ALTER TABLE outbox ADD COLUMN texto text;
ALTER TABLE outbox ADD COLUMN html text;
ALTER TABLE outbox ADD COLUMN request_id text;
-- The customer the message is about, when there is one. No foreign key: the outbox is the service's delivery
-- queue (drained for every customer, no row-level security), not the customer's record.
ALTER TABLE outbox ADD COLUMN cliente_id uuid;
-- After this the message is not sent any more, and whatever is left of its content is erased.
ALTER TABLE outbox ADD COLUMN expira_em timestamptz;
ALTER TABLE outbox ADD COLUMN conteudo_apagado_em timestamptz;

ALTER TABLE outbox ADD CONSTRAINT outbox_mensagem_check CHECK (
  CASE WHEN tipo = 'contato'
    THEN contato_id IS NOT NULL AND assunto_email IS NULL AND texto IS NULL AND html IS NULL AND expira_em IS NULL
    ELSE contato_id IS NULL AND assunto_email IS NOT NULL AND request_id IS NOT NULL AND expira_em IS NOT NULL
      AND (conteudo_apagado_em IS NOT NULL OR (texto IS NOT NULL AND html IS NOT NULL))
  END);

-- The hourly erasure reads only the messages that still hold content.
CREATE INDEX outbox_conteudo_idx ON outbox (expira_em) WHERE expira_em IS NOT NULL AND conteudo_apagado_em IS NULL;

-- The queue counts behind /api/status and /api/site/contato/estado run every few seconds on every
-- instance: they must read the open and failed rows only, not the whole (ever growing) outbox.
CREATE INDEX outbox_aberto_idx ON outbox (criado_em) WHERE estado IN ('pendente', 'enviando');
CREATE INDEX outbox_falhou_idx ON outbox (atualizado_em) WHERE estado = 'falhou';
CREATE INDEX outbox_enviado_em_idx ON outbox (enviado_em);

-- One transfer is recorded for one payment (issue 31, item 8): a bank's transaction id is unique among a customer's
-- payments, so the same transfer can never be recorded as paying two cedentes. An installation that already holds a
-- repeated id stops here, naming it, for a person to look at: which payment that transfer really paid is not the
-- migration's to guess.
DO $$
DECLARE repeated text;
BEGIN
  SELECT string_agg(format('%s (customer %s)', id_transacao, cliente_id), ', ') INTO repeated FROM (
    SELECT cliente_id, id_transacao FROM desembolsos WHERE id_transacao IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d;
  IF repeated IS NOT NULL THEN
    RAISE EXCEPTION 'payments record the same transfer more than once: %; correct them before this migration', repeated;
  END IF;
END $$;
CREATE UNIQUE INDEX desembolsos_id_transacao_unico ON desembolsos (cliente_id, id_transacao) WHERE id_transacao IS NOT NULL;

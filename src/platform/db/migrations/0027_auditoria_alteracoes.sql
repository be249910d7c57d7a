-- What a change changed (issue 31, item 6): a cedente's bank account swapped before its payment left an audit row
-- that said only "cedente.alterado". The row now keeps each field changed, before and after; never a secret (no
-- register holds one).
ALTER TABLE auditoria_cliente ADD COLUMN alteracoes jsonb CHECK (alteracoes IS NULL OR jsonb_typeof(alteracoes) = 'object');

-- A duplicata is its invoice's key and its own number (issue 31, item 3): an NF-e paid in installments is drawn as
-- several duplicatas (Lei 5.474/1968 art. 2 § 3), one per installment, each with the same key and its own number.
-- Each may be bought once; the same installment never twice while it is in a live operation. Every key the old
-- index allowed is allowed by this one, so nothing already stored can break it.
DROP INDEX titulos_chave_nfe_viva;
CREATE UNIQUE INDEX titulos_duplicata_viva ON titulos (cliente_id, chave_nfe, numero) WHERE chave_nfe IS NOT NULL AND estado <> 'cancelado';

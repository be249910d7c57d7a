-- The replay cache of DPoP proofs (0007) is written by the serving role of 0005: it remembers each proof's
-- jti (INSERT … ON CONFLICT … RETURNING, so SELECT too) and purges the expired ones (DELETE). It holds no
-- customer's data (a hash of key thumbprint and jti), so no row-level security. The new outbox columns of
-- 0006 and instalacao.segredo of 0007 are covered by 0005's table-level grants.
GRANT SELECT, INSERT, DELETE ON dpop_jti TO fct_servico;

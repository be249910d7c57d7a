-- DPoP (RFC 9449) for personal access tokens bound to a key: the replay cache of proof identifiers, and the
-- installation secret the server-issued nonces are derived from.

-- Every proof's jti is remembered for as long as its iat would still be accepted, so a proof cannot be used twice
-- on any instance. The key is the SHA-256 of the key thumbprint and the jti (a jti is unique per key, and the
-- client chooses it: hashing bounds its length). Logged, not UNLOGGED: after a crash or a failover the proofs of
-- the last minute must still be refused.
-- The service's runtime role (migration 0005) needs SELECT, INSERT and DELETE on this table: INSERT … ON
-- CONFLICT DO NOTHING RETURNING records a proof, and the purge deletes expired rows by a WHERE on expira_em.
CREATE TABLE dpop_jti (
  chave text PRIMARY KEY,
  expira_em timestamptz NOT NULL
);
CREATE INDEX dpop_jti_expira_em_idx ON dpop_jti (expira_em);

-- A secret of the installation, shared by every instance through the database, from which purpose keys are
-- derived (HMAC with a label): the DPoP nonces are its first use. 244 random bits from pg_strong_random (two
-- version-4 UUIDs); sal_ip stays as it is, since the audit's IP hashes must keep comparing across time.
-- The runtime role reads it (SELECT on instalacao).
ALTER TABLE instalacao ADD COLUMN segredo text NOT NULL
  DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');

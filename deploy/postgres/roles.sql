-- Run once by the postgres image, when its data volume is new (/docker-entrypoint-initdb.d): the login of the
-- runtime role, so the apps connect as fct_servico (DATABASE_URL), which owns nothing and cannot turn row-level
-- security off, while the one-shot migration connects as the owner (MIGRATION_DATABASE_URL). The migrations find
-- the role made and give it its grants. Development passwords only; on a volume made before this file existed run
--   ALTER ROLE fct_servico LOGIN PASSWORD 'servico-dev-only';
CREATE ROLE fct_servico LOGIN PASSWORD 'servico-dev-only' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION NOINHERIT;

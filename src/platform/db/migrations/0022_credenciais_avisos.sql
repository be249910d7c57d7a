-- Each instance keeps a token's lookup for half a second (src/modules/credentials/tokens/lookup-cache.ts). A change
-- to what the lookup reads (a token revoked or changed, a person's state or role, a customer's state) is notified
-- on channel `credenciais` at its commit, and every instance listening drops what it kept; the half second
-- bounds the rest. The recording of a token's use (its first and last use) changes none of these columns and
-- notifies nothing. Once per statement: a change of many rows is one notice.
CREATE FUNCTION credenciais_avisar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credenciais', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER tokens_mudou AFTER UPDATE OF revogado_em, escopos, expira_em, dpop_jkt, usuario_id, cliente_id, hash OR DELETE ON tokens
  FOR EACH STATEMENT EXECUTE FUNCTION credenciais_avisar();
CREATE TRIGGER usuarios_mudou AFTER UPDATE OF estado, papel, cliente_id OR DELETE ON usuarios
  FOR EACH STATEMENT EXECUTE FUNCTION credenciais_avisar();
CREATE TRIGGER clientes_mudou AFTER UPDATE OF estado OR DELETE ON clientes
  FOR EACH STATEMENT EXECUTE FUNCTION credenciais_avisar();

-- What a customer sees numbered is numbered per customer (issue 31 item 13): the borderô's number, the ledger
-- entry's and the audit row's were the tables' global sequences, so one customer saw its numbers jump by another's
-- activity, and could count it. Each gets `numero`, 1, 2, 3… within its customer, given by a trigger from a counter
-- per customer and series (the counter's row is locked until commit: a customer's numbers never repeat and, but for
-- a rolled-back insert, leave no gap; another customer never waits for them). The global `seq` stays, unseen, for
-- the order of rows inside the database.
CREATE TABLE numeracao_cliente (
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  serie text NOT NULL CHECK (serie IN ('operacoes', 'lancamentos', 'auditoria_cliente')),
  ultimo bigint NOT NULL CHECK (ultimo > 0),
  PRIMARY KEY (cliente_id, serie)
);
-- A customer's row like any other (its own counters only); only the trigger's function writes them, as the owner
-- and under the same row security: the serving role may read its counters, never set them.
SELECT aplica_tenancy('numeracao_cliente');
GRANT SELECT ON numeracao_cliente TO fct_servico;

CREATE FUNCTION numera_por_cliente() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO public.numeracao_cliente AS n (cliente_id, serie, ultimo) VALUES (NEW.cliente_id, TG_TABLE_NAME, 1)
    ON CONFLICT (cliente_id, serie) DO UPDATE SET ultimo = n.ultimo + 1
    RETURNING n.ultimo INTO NEW.numero;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION numera_por_cliente() FROM PUBLIC;

-- The rows there already are numbered in their order of insertion. The tables are held to row security even for
-- their owner, and two refuse any update: both are lifted for the numbering alone, in this transaction.
ALTER TABLE numeracao_cliente NO FORCE ROW LEVEL SECURITY;
DO $$
DECLARE
  tabela text;
  imutavel text;
  ordem text;
BEGIN
  FOREACH tabela IN ARRAY ARRAY['operacoes', 'lancamentos', 'auditoria_cliente'] LOOP
    imutavel := CASE tabela WHEN 'lancamentos' THEN 'lancamentos_imutaveis' WHEN 'auditoria_cliente' THEN 'auditoria_cliente_sem_update_delete' END;
    ordem := CASE tabela WHEN 'auditoria_cliente' THEN 'id' ELSE 'seq' END;
    EXECUTE format('ALTER TABLE %I ADD COLUMN numero bigint', tabela);
    EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', tabela);
    IF imutavel IS NOT NULL THEN
      EXECUTE format('ALTER TABLE %I DISABLE TRIGGER %I', tabela, imutavel);
    END IF;
    EXECUTE format($u$UPDATE %1$I t SET numero = n.numero
      FROM (SELECT id, row_number() OVER (PARTITION BY cliente_id ORDER BY %2$I) AS numero FROM %1$I) n WHERE t.id = n.id$u$,
      tabela, ordem);
    IF imutavel IS NOT NULL THEN
      EXECUTE format('ALTER TABLE %I ENABLE TRIGGER %I', tabela, imutavel);
    END IF;
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tabela);
    EXECUTE format($i$INSERT INTO numeracao_cliente (cliente_id, serie, ultimo)
      SELECT cliente_id, %L, max(numero) FROM %I GROUP BY cliente_id$i$, tabela, tabela);
    EXECUTE format('ALTER TABLE %1$I ALTER COLUMN numero SET NOT NULL, ADD CONSTRAINT %2$I UNIQUE (cliente_id, numero)',
      tabela, tabela || '_numero_unico');
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT ON %I FOR EACH ROW EXECUTE FUNCTION numera_por_cliente()', tabela || '_numera', tabela);
  END LOOP;
END
$$;
ALTER TABLE numeracao_cliente FORCE ROW LEVEL SECURITY;

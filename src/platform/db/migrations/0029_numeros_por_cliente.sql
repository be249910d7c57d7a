-- What a customer sees numbered is numbered per customer (issue 31 item 13): the borderô's number, the ledger
-- entry's and the audit row's were the tables' global sequences, so one customer saw its numbers jump by another's
-- activity, and could count it. Each gets `numero`, 1, 2, 3… within its customer, given on insert by a trigger: the
-- next after the customer's highest, under a transaction-long lock of that customer and table, so two transactions
-- of one customer number in turn (the second waits for the first's commit, then sees its rows) and a customer's
-- numbers never repeat; another customer never waits for them. (A counter row updated at each insert was tried
-- first: a bulk insert of 30,000 rows in one transaction took 51 s, each update walking the versions of the row the
-- transaction had made before.) The global sequence stays, unseen, for the order of rows inside the database.
CREATE FUNCTION numera_por_cliente() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_NAME), hashtext(NEW.cliente_id::text));
  -- A statement run here sees the rows this transaction (and this very statement) inserted before, and those
  -- committed by whoever held the lock before: the highest is the last given.
  -- One static statement per table, so each keeps its plan (a bulk insert runs this once per row).
  IF TG_TABLE_NAME = 'operacoes' THEN
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.operacoes WHERE cliente_id = NEW.cliente_id;
  ELSIF TG_TABLE_NAME = 'lancamentos' THEN
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.lancamentos WHERE cliente_id = NEW.cliente_id;
  ELSE
    SELECT coalesce(max(numero), 0) + 1 INTO NEW.numero FROM public.auditoria_cliente WHERE cliente_id = NEW.cliente_id;
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION numera_por_cliente() FROM PUBLIC;

-- The rows there already are numbered in their order of insertion. The tables are held to row security even for
-- their owner, and two refuse any update: both are lifted for the numbering alone, in this transaction.
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
    -- The unique index is also what finds the customer's highest number at each insert.
    EXECUTE format('ALTER TABLE %1$I ALTER COLUMN numero SET NOT NULL, ADD CONSTRAINT %2$I UNIQUE (cliente_id, numero)',
      tabela, tabela || '_numero_unico');
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT ON %I FOR EACH ROW EXECUTE FUNCTION numera_por_cliente()', tabela || '_numera', tabela);
  END LOOP;
END
$$;

-- Every total the ledger serves stays a number a client reads exactly (issue 31 item 12): the trial balance once
-- served …984 for the …982 the database held, past 2^53 − 1 centavos, where a JSON number stops being exact in
-- JavaScript. Every served total of a customer's ledger (an account's debits or credits, a balance, the trial
-- balance's sums, a conta gráfica's running balance, an exposure, which counts títulos whose acquisition was posted)
-- is at most the customer's debits ever posted (equal to its credits). So that sum is kept here, per customer, and
-- a CHECK refuses the posting that would take it past 2^53 − 1: the write is refused, never a total served rounded.
-- (R$ 90 trillion: no customer reaches it by business; only a hostile one could try.)
CREATE TABLE razao_totais (
  cliente_id uuid PRIMARY KEY REFERENCES clientes (id),
  debitos_centavos bigint NOT NULL,
  CONSTRAINT razao_totais_seguro CHECK (debitos_centavos BETWEEN 0 AND 9007199254740991)
);
-- A customer's row like any other; only the trigger's function writes it, as the owner and under the same row
-- security: the serving role may read its total, never set it.
SELECT aplica_tenancy('razao_totais');
GRANT SELECT ON razao_totais TO fct_servico;

-- Added once per statement that inserts lines, an entry's lines at a time (lines are never changed or removed:
-- 0020's triggers). The row stays locked until commit, so two postings of one customer at once add up in turn.
CREATE FUNCTION soma_razao_total() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO public.razao_totais AS t (cliente_id, debitos_centavos)
    SELECT cliente_id, sum(debito_centavos) FROM novas GROUP BY cliente_id HAVING sum(debito_centavos) > 0
    ON CONFLICT (cliente_id) DO UPDATE SET debitos_centavos = t.debitos_centavos + EXCLUDED.debitos_centavos;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION soma_razao_total() FROM PUBLIC;

-- The lines there already; a total already past the limit stops the migration (it cannot be served exactly).
ALTER TABLE lancamento_linhas NO FORCE ROW LEVEL SECURITY;
ALTER TABLE razao_totais NO FORCE ROW LEVEL SECURITY;
INSERT INTO razao_totais (cliente_id, debitos_centavos)
  SELECT cliente_id, sum(debito_centavos) FROM lancamento_linhas GROUP BY cliente_id HAVING sum(debito_centavos) > 0;
ALTER TABLE razao_totais FORCE ROW LEVEL SECURITY;
ALTER TABLE lancamento_linhas FORCE ROW LEVEL SECURITY;

CREATE TRIGGER lancamento_linhas_total AFTER INSERT ON lancamento_linhas REFERENCING NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION soma_razao_total();

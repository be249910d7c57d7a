-- The deságio earned day by day (issue 33, produto.md §3): at acquisition the deságio is credited to
-- `desagio_a_apropriar` (a liability: income not yet earned); each day the part of it that day earned moves to
-- `receita_desagio`, and what remains is recognised when a título ends (liquidated, bought back, written off).
--   * each título keeps its deságio and its days (from the accepted quote's line) and how much of it is earned;
--   * a customer's day is appropriated once (apropriacoes_desagio), in one entry, in the transaction that moves
--     the títulos' earned amounts: a run killed halfway leaves the day whole or not begun.
INSERT INTO contas_contabeis (codigo, nome, natureza, por_cedente, ordem) VALUES
  ('receita_desagio', 'Receita de deságio', 'credora', false, 11);

ALTER TABLE lancamentos DROP CONSTRAINT lancamentos_origem_tipo_check,
  ADD CONSTRAINT lancamentos_origem_tipo_check CHECK (origem_tipo IN ('operacao', 'desembolso', 'lancamento_manual', 'apropriacao_desagio'));

ALTER TABLE titulos
  ADD COLUMN desagio_centavos bigint CHECK (desagio_centavos BETWEEN 0 AND 9007199254740991),
  ADD COLUMN desagio_dias integer CHECK (desagio_dias >= 0),
  ADD COLUMN desagio_apropriado_centavos bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT titulos_desagio_apropriado CHECK (desagio_apropriado_centavos BETWEEN 0 AND coalesce(desagio_centavos, 0)),
  ADD CONSTRAINT titulos_desagio_completo CHECK ((desagio_centavos IS NULL) = (desagio_dias IS NULL));

-- The títulos acquired before this migration take their deságio and days from their operation's accepted quote.
UPDATE titulos t SET desagio_centavos = (l.linha ->> 'desagio_centavos')::bigint, desagio_dias = (l.linha ->> 'dias_desconto')::integer
  FROM operacoes o
  JOIN cotacoes c ON c.cliente_id = o.cliente_id AND c.operacao_id = o.id AND c.versao = o.cotacao_aceita
  CROSS JOIN LATERAL json_array_elements(c.calculo -> 'linhas') AS l(linha)
 WHERE t.operacao_id = o.id AND t.cliente_id = o.cliente_id AND (l.linha ->> 'titulo_id')::uuid = t.id AND o.cotacao_aceita IS NOT NULL;

CREATE TABLE apropriacoes_desagio (
  id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  dia date NOT NULL,
  lancamento_id uuid,
  centavos bigint NOT NULL CHECK (centavos BETWEEN 0 AND 9007199254740991),
  titulos integer NOT NULL CHECK (titulos >= 0),
  criado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cliente_id, dia),
  CHECK ((lancamento_id IS NULL) = (centavos = 0))
);

SELECT aplica_tenancy('apropriacoes_desagio');

-- The daily job's index across customers: which have deságio still to earn, and the first day not yet appropriated
-- (the day after the last one, or the day after their earliest operation's date). Nothing else of any customer.
CREATE FUNCTION desagio_pendente()
RETURNS TABLE (cliente_id uuid, desde date)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.cliente_id,
         coalesce((SELECT max(a.dia) + 1 FROM public.apropriacoes_desagio a WHERE a.cliente_id = t.cliente_id), min(o.data_operacao) + 1)
    FROM public.titulos t
    JOIN public.operacoes o ON o.cliente_id = t.cliente_id AND o.id = t.operacao_id
   WHERE t.estado = 'adquirido' AND t.desagio_apropriado_centavos < t.desagio_centavos
   GROUP BY t.cliente_id
$$;
REVOKE ALL ON FUNCTION desagio_pendente() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desagio_pendente() TO fct_servico;

GRANT SELECT, INSERT ON apropriacoes_desagio TO fct_servico;
GRANT UPDATE (desagio_centavos, desagio_dias, desagio_apropriado_centavos) ON titulos TO fct_servico;

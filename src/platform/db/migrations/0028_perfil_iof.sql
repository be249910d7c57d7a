-- A cedente's IOF profile must fit the party (issue 31, item 4): a CPF cedente was stored with perfil_iof 'pj', and
-- its operations were taxed at a company's rates. `pj` and `pj_simples` are for a CNPJ, `pf` for a CPF, `isento` for
-- either (tipo_pessoa is the document's kind, 0015). `pj_simples`, the lower rate, keeps the cedente's declaration
-- that it is optante do Simples Nacional: the day it declared it (the regime began on 2007-07-01) and the signed
-- document's SHA-256. An exemption's reason is a code of the list in src/modules/origination/registers/iof-profile.ts,
-- each with its legal basis, no longer free text (test/modules/origination/iof-profile.test.ts stores each code of that
-- list, so a code added there and not here fails).
ALTER TABLE cedentes
  ADD COLUMN simples_declarado_em date,
  ADD COLUMN simples_declaracao_sha256 text,
  ADD CONSTRAINT cedentes_perfil_do_documento
    CHECK (CASE perfil_iof WHEN 'pf' THEN tipo_pessoa = 'pf' WHEN 'isento' THEN true ELSE tipo_pessoa = 'pj' END) NOT VALID,
  ADD CONSTRAINT cedentes_declaracao_simples CHECK ((perfil_iof = 'pj_simples') = (simples_declarado_em IS NOT NULL)
    AND (simples_declarado_em IS NULL) = (simples_declaracao_sha256 IS NULL)) NOT VALID,
  ADD CONSTRAINT cedentes_declaracao_simples_forma
    CHECK (simples_declarado_em >= DATE '2007-07-01' AND simples_declaracao_sha256 ~ '^[0-9a-f]{64}$'),
  ADD CONSTRAINT cedentes_motivo_isencao_codigo CHECK (motivo_isencao IN ('comprador_fidc', 'comprador_securitizadora', 'cooperativa',
    'exportacao', 'rural', 'fins_habitacionais', 'itaipu', 'missao_diplomatica')) NOT VALID;

-- Rows already stored that break these rules are not rewritten: which profile or reason is right is the customer's
-- to say, and a guess changes the IOF they charge. The migration stops instead (nothing of it stays), saying how
-- many rows break which rule, the first of them, and how to fix them with the release before. Each rule's rows are
-- found by its constraint's own expression, so the rule is written once.
DO $$
DECLARE
  r record;
  rule text;
  broken bigint;
  sample text;
  total bigint;
  rules text[] := '{}';
  problems text[] := '{}';
BEGIN
  FOR r IN SELECT * FROM (VALUES
    ('cedentes_perfil_do_documento', 'perfil_iof pj or pj_simples and a CPF, or pf and a CNPJ', 'change each to the profile of its documento'),
    ('cedentes_declaracao_simples', 'perfil_iof pj_simples, which now needs the cedente''s Simples Nacional declaration',
      'change each to pj (pf for a CPF), and once migrated back to pj_simples with declaracao_simples (its day and the signed document''s SHA-256)'),
    ('cedentes_motivo_isencao_codigo', 'perfil_iof isento and a motivo_isencao that is not a code', 'change each reason to one of comprador_fidc, '
      || 'comprador_securitizadora, cooperativa, exportacao, rural, fins_habitacionais, itaipu, missao_diplomatica')
  ) AS v(constraint_name, what, fix)
  LOOP
    -- The definition reads "CHECK (…) NOT VALID": the expression is what is between.
    SELECT regexp_replace(pg_get_constraintdef(c.oid), '^CHECK (.*) NOT VALID$', '\1') INTO STRICT rule
      FROM pg_constraint c WHERE c.conrelid = 'cedentes'::regclass AND c.conname = r.constraint_name;
    EXECUTE format('SELECT count(*), string_agg(id::text || '' (cliente '' || cliente_id || '')'', '', '') FILTER (WHERE n <= 5)
      FROM (SELECT id, cliente_id, row_number() OVER (ORDER BY cliente_id, seq) AS n FROM cedentes WHERE NOT coalesce(%s, true)) x', rule)
      INTO broken, sample;
    rules := rules || format('NOT coalesce(%s, true)', rule);
    IF broken > 0 THEN
      problems := problems || format('%s with %s (%s%s): %s', broken, r.what, sample,
        CASE WHEN broken > 5 THEN format(' and %s more', broken - 5) ELSE '' END, r.fix);
    END IF;
  END LOOP;
  IF cardinality(problems) > 0 THEN
    -- A row may break two rules (a CPF as pj_simples): counted once here.
    EXECUTE 'SELECT count(*) FROM cedentes WHERE ' || array_to_string(rules, ' OR ') INTO total;
    RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = format('migration 0028_perfil_iof stopped, nothing was changed: '
      '%s cedente row(s) break the IOF profile rules of this release, and a customer''s data is not rewritten for them. With the '
      'release before (PATCH /api/cedentes/{id} as each customer), fix them and start again. %s.', total,
      array_to_string(problems, '; '));
  END IF;
END
$$;

ALTER TABLE cedentes VALIDATE CONSTRAINT cedentes_perfil_do_documento, VALIDATE CONSTRAINT cedentes_declaracao_simples,
  VALIDATE CONSTRAINT cedentes_motivo_isencao_codigo;

-- The service changes a cedente's declaration with its profile.
GRANT UPDATE (simples_declarado_em, simples_declaracao_sha256) ON cedentes TO fct_servico;

-- The IOF/Crédito rates the service prices with (produto.md §2.4): data with a start date and a source, never a
-- constant in code. One row per change of the rules and profile; a row is never changed or removed (a trigger
-- refuses it, the owner included): when the rules change again the operator adds a row (`npm run cli -- iof
-- adicionar`), and a row's end is the day before the next one of its profile starts (iof_vigencias below).
-- Platform data, the same for every customer: no cliente_id, no row security.
--
-- The table starts on 2022-01-01, after the temporary rates of Decreto 10.797/2021 ended (31/12/2021): an operation
-- dated before it is refused (iof_sem_aliquota), never priced with a guess. `pj_simples` is a Simples Nacional
-- company's operation of at most R$ 30,000.00 (the service applies `pj` above that).
CREATE TABLE iof_aliquotas (
  id bigserial PRIMARY KEY,
  perfil text NOT NULL CHECK (perfil IN ('pj', 'pj_simples', 'pf')),
  vigencia_inicio date NOT NULL CHECK (vigencia_inicio >= date '2000-01-01'),
  -- Fractions (0.000082 is 0.0082 % a day), exact.
  taxa_diaria numeric(14, 12) NOT NULL CHECK (taxa_diaria >= 0 AND taxa_diaria < 0.01),
  taxa_adicional numeric(14, 12) NOT NULL CHECK (taxa_adicional >= 0 AND taxa_adicional < 0.1),
  fonte text NOT NULL CHECK (length(fonte) BETWEEN 5 AND 500),
  criado_em timestamptz NOT NULL DEFAULT now(),
  UNIQUE (perfil, vigencia_inicio)
);

-- Refuses a change of a row that never changes, with the trigger's own message (its first argument); for the
-- owner too, which grants do not stop. Shared by every append-only table of the product.
CREATE FUNCTION recusa_alteracao() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'restrict_violation';
END
$$;
REVOKE ALL ON FUNCTION recusa_alteracao() FROM PUBLIC;
CREATE TRIGGER iof_aliquotas_imutaveis BEFORE UPDATE OR DELETE ON iof_aliquotas
  FOR EACH ROW EXECUTE FUNCTION recusa_alteracao('an IOF rate is never changed or removed: add a row that starts when the new rules do');
CREATE TRIGGER iof_aliquotas_sem_truncate BEFORE TRUNCATE ON iof_aliquotas
  FOR EACH STATEMENT EXECUTE FUNCTION recusa_alteracao('an IOF rate is never changed or removed: add a row that starts when the new rules do');

-- Each row with the day its rules stopped (null: in force).
CREATE VIEW iof_vigencias AS
  SELECT id, perfil, vigencia_inicio,
         (lead(vigencia_inicio) OVER (PARTITION BY perfil ORDER BY vigencia_inicio) - 1) AS vigencia_fim,
         taxa_diaria, taxa_adicional, fonte
    FROM iof_aliquotas;

GRANT SELECT, INSERT ON iof_aliquotas TO fct_servico;
GRANT SELECT ON iof_vigencias TO fct_servico;
GRANT USAGE ON SEQUENCE iof_aliquotas_id_seq TO fct_servico;

INSERT INTO iof_aliquotas (perfil, vigencia_inicio, taxa_diaria, taxa_adicional, fonte) VALUES
  ('pj', '2022-01-01', 0.000041, 0.0038,
   'Decreto 6.306/2007, art. 7º (0,0041% ao dia) e § 15 (adicional de 0,38%), após o fim das alíquotas temporárias do Decreto 10.797/2021 em 31/12/2021'),
  ('pj', '2025-05-23', 0.000082, 0.0095,
   'Decreto 12.466/2025 (DOU extra de 22/05/2025): 0,0082% ao dia e adicional de 0,95% para pessoa jurídica'),
  ('pj', '2025-06-11', 0.000082, 0.0038,
   'Decreto 12.499/2025 (DOU extra de 11/06/2025, em vigor na publicação): adicional de volta a 0,38%, diária mantida em 0,0082%'),
  ('pj', '2025-06-27', 0.000041, 0.0038,
   'Decreto Legislativo 176/2025 (DOU de 27/06/2025) sustou os Decretos 12.466, 12.467 e 12.499 e restabeleceu o Decreto 6.306/2007; STF, ADIs 7827 e 7839 e ADC 96, decisão de 04/07/2025, suspendeu também os decretos'),
  ('pj', '2025-07-16', 0.000082, 0.0038,
   'STF, ADC 96 e ADIs 7827 e 7839, decisão de 16/07/2025 (Min. Alexandre de Moraes, ad referendum do Plenário): restabelecido o Decreto 12.499/2025, salvo quanto ao risco sacado'),
  ('pf', '2022-01-01', 0.000082, 0.0038,
   'Decreto 6.306/2007, art. 7º (0,0082% ao dia para pessoa física) e § 15 (adicional de 0,38%); inalterada pelos decretos de 2025'),
  ('pj_simples', '2022-01-01', 0.0000137, 0.0038,
   'Decreto 6.306/2007, art. 7º: optante do Simples Nacional em operação de até R$ 30.000,00, 0,00137% ao dia, e § 15 (adicional de 0,38%)'),
  ('pj_simples', '2025-05-23', 0.0000274, 0.0095,
   'Decreto 12.466/2025 (DOU extra de 22/05/2025): Simples Nacional até R$ 30.000,00, 0,00274% ao dia e adicional de 0,95%'),
  ('pj_simples', '2025-06-11', 0.0000274, 0.0038,
   'Decreto 12.499/2025 (DOU extra de 11/06/2025): Simples Nacional e MEI até R$ 30.000,00, 0,00274% ao dia; adicional de 0,38%'),
  ('pj_simples', '2025-06-27', 0.0000137, 0.0038,
   'Decreto Legislativo 176/2025 (DOU de 27/06/2025): restabelecido o Decreto 6.306/2007 anterior às alterações de 2025'),
  ('pj_simples', '2025-07-16', 0.0000274, 0.0038,
   'STF, ADC 96 e ADIs 7827 e 7839, decisão de 16/07/2025: restabelecido o Decreto 12.499/2025');

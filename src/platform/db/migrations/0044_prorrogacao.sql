-- A new due date confirmed by the bank (issue 33: "Prorrogação with IOF complementar for the added days (365 in all
-- at most) … posted to the ledger and shown in the cedente's conta gráfica"):
-- - the IOF the added days cost is priced when the extension is asked (the rate in force that day, on the título's
--   balance) and kept on the instruction, so the answer says what it will cost and the confirmation posts exactly that;
-- - once confirmed, the título and its charge fall due on the new date: the charge's barcode and linha digitável
--   carry the new fator de vencimento (the campo livre and the value are the same; the bank re-dates the boleto),
--   and the título's deságio is earned over the longer term (desagio_dias, granted in 0037).
ALTER TABLE cobranca_instrucoes
  ADD COLUMN iof_centavos bigint CHECK (iof_centavos BETWEEN 0 AND 9007199254740991),
  ADD COLUMN iof_dias integer CHECK (iof_dias BETWEEN 0 AND 365),
  ADD CONSTRAINT cobranca_instrucoes_iof CHECK ((iof_centavos IS NULL) = (iof_dias IS NULL)
    AND (iof_centavos IS NULL OR instrucao = 'alteracao_vencimento'));

GRANT UPDATE (vencimento) ON titulos TO fct_servico;
GRANT UPDATE (vencimento, codigo_barras, linha_digitavel) ON cobrancas TO fct_servico;

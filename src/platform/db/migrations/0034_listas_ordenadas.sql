-- The lists sorted by their main columns (issue 32 item 2) and their exports, which read a sorted list in batches
-- after the last row: every order a list offers has an index that starts with the customer and follows the order
-- and its tie-breaker, so each page or batch reads its rows in order instead of sorting all the customer's rows
-- again (without one, an export of N rows cost N²/1000 row reads: a red team measured 32,000 of 1,000,000 títulos
-- in 30 s sorted by value, against 200,000 in 5 s by due date). The default orders (by seq or number) have theirs
-- already (0019, 0029); a register's document is unique per customer, so its unique index serves that order; a
-- search scans the customer's rows anyway.
CREATE INDEX titulos_vencimento_idx ON titulos (cliente_id, vencimento, seq);
CREATE INDEX operacoes_data_idx ON operacoes (cliente_id, data_operacao, numero);
CREATE INDEX operacoes_estado_idx ON operacoes (cliente_id, estado, numero);
CREATE INDEX titulos_emissao_idx ON titulos (cliente_id, emissao, seq);
CREATE INDEX titulos_valor_face_idx ON titulos (cliente_id, valor_face_centavos, seq);
CREATE INDEX titulos_numero_idx ON titulos (cliente_id, numero, seq);
CREATE INDEX desembolsos_valor_idx ON desembolsos (cliente_id, valor_centavos, seq);
CREATE INDEX desembolsos_estado_lista_idx ON desembolsos (cliente_id, estado, seq);
CREATE INDEX cedentes_razao_social_idx ON cedentes (cliente_id, razao_social, seq);
CREATE INDEX sacados_razao_social_idx ON sacados (cliente_id, razao_social, seq);
CREATE INDEX lancamentos_data_numero_idx ON lancamentos (cliente_id, data, numero);

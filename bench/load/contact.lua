-- wrk: POST /api/site/contato with a new payload on every request (the same payload twice within ten
-- minutes is a double click, answered without storing), so every request is the full 202 write path.
local run = os.getenv("BENCH_RUN") or tostring(os.time())
local n = 0
request = function()
  n = n + 1
  local body = string.format(
    '{"nome":"Pessoa %s %d","email":"pessoa%d@empresa.com.br","assunto":"comercial","mensagem":"Quero conhecer a antecipacao de recebiveis, pedido %s-%d."}',
    run, n, n, run, n)
  return wrk.format("POST", "/api/site/contato", { ["Content-Type"] = "application/json" }, body)
end

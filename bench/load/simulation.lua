-- wrk: POST /api/simulacoes of ten títulos (the contract's terms, the acceptance example's kinds of título and
-- amounts, due dates spread over five months): pricing alone, nothing stored.
local titulos = {}
local tipos = { "duplicata_mercantil", "duplicata_servico", "cheque" }
for n = 1, 10 do
  titulos[n] = string.format('{"tipo":"%s","vencimento":"2026-%02d-%02d","valor_face_centavos":%d}', tipos[(n % 3) + 1], 11 + (n % 2), 4 + n, 1000000 + n * 250000)
end
local body = '{"data_operacao":"2026-10-05","perfil_iof":"pj","base":"simples_30","taxa_mensal":"0.035","taxa_ad_valorem":"0.003",'
  .. '"tarifa_por_titulo_centavos":800,"tac_centavos":15000,"dias_float":{"duplicata_mercantil":2,"duplicata_servico":2,"cheque":2},'
  .. '"iof":"calcular","titulos":[' .. table.concat(titulos, ",") .. ']}'
request = function()
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", "/api/simulacoes", headers, body)
end

-- wrk: customer A's flood (issue 31 item 9), over its operations of BENCH_OPERATIONS (ids separated by commas) in
-- turn: each read (GET /api/operacoes/{id}), quoted (a new version priced from all its títulos, under the
-- operation's lock), and its títulos listed, a page of 200; every answer counted by status.
dofile(os.getenv("BENCH_LOAD_DIR") .. "/statuses.lua")
local ids = {}
for id in string.gmatch(os.getenv("BENCH_OPERATIONS") or "", "[^,]+") do ids[#ids + 1] = id end
local i = 0
request = function()
  i = i + 1
  local id = ids[(math.floor(i / 3) % #ids) + 1]
  local kind = i % 3
  if kind == 0 then return wrk.format("GET", "/api/operacoes/" .. id, wrk.headers, nil) end
  if kind == 1 then return wrk.format("POST", "/api/operacoes/" .. id .. "/cotacao", wrk.headers, nil) end
  return wrk.format("GET", "/api/titulos?operacao_id=" .. id .. "&limite=200", wrk.headers, nil)
end

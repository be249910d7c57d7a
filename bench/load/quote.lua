-- wrk: POST /api/operacoes/{id}/cotacao, the operations of BENCH_OPERATIONS (ids separated by commas) in turn:
-- each quote prices its operation's títulos and writes a new version, under the operation's lock, so the load
-- spreads over many operations rather than queueing on one.
local ids = {}
for id in string.gmatch(os.getenv("BENCH_OPERATIONS") or "", "[^,]+") do ids[#ids + 1] = id end
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/api/operacoes/" .. ids[(i % #ids) + 1] .. "/cotacao", wrk.headers, nil)
end

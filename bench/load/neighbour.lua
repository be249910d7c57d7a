-- wrk: customer B's reads (issue 31 item 9), paced: each connection waits BENCH_PACE_MS after an answer before its
-- next request, so B asks as much whether or not customer A floods, and its latency is the service's, not the
-- queue its own connections would make.
dofile(os.getenv("BENCH_LOAD_DIR") .. "/statuses.lua")
local pace = tonumber(os.getenv("BENCH_PACE_MS") or "20")
function delay() return pace end

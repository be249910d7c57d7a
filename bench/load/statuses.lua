-- wrk: the answers counted by status, each thread's added up at the end and printed as `status <code> <count>`
-- lines after wrk's summary (bench/lib/wrk.ts reads them): wrk itself only counts the answers that are not 2xx.
-- A script loads it first with dofile(os.getenv("BENCH_LOAD_DIR") .. "/statuses.lua").
local threads = {}
function setup(thread) threads[#threads + 1] = thread end
-- Global, so that done() can read each thread's with thread:get.
function init() statuses = {} end
function response(status) statuses[status] = (statuses[status] or 0) + 1 end
function done()
  local total = {}
  for _, thread in ipairs(threads) do
    for code, n in pairs(thread:get("statuses")) do total[code] = (total[code] or 0) + n end
  end
  for code, n in pairs(total) do io.write(string.format("status %d %d\n", code, n)) end
end

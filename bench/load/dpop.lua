-- wrk: GET with a DPoP-bound token, each request with a proof of its own (a proof is good once). The proofs are
-- made by bench/run.ts right before the run, one per line of the file BENCH_PROOFS, under the current nonce;
-- once they run out the last one is sent again and refused as a replay (counted as errors: the run was too long
-- for the proofs made).
local proofs = {}
local i = 0
init = function(args)
  for line in io.lines(os.getenv("BENCH_PROOFS")) do proofs[#proofs + 1] = line end
end
request = function()
  i = i + 1
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["DPoP"] = proofs[math.min(i, #proofs)]
  return wrk.format(nil, nil, headers)
end

-- POST /auth/password/request, a different address on every request
-- (nobody-THREAD-N@example.com: no account, no per-address limit reached).
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

local sent = 0
local headers = { ["Content-Type"] = "application/json" }

function request()
   sent = sent + 1
   return wrk.format("POST", nil, headers, string.format('{"email":"nobody-%d-%d@example.com"}', id, sent))
end

-- Refresh-token rotation: many independent chains, each request presents the newest
-- refresh token of one chain, and the token in its answer goes back to the pool.
-- A connection has one request in flight and wrk calls response() before that connection's
-- next request(), so with more chains than connections no chain is ever used twice.
-- Arguments: a file with one refresh token per line (thread `id` of THREADS takes every
-- THREADS-th line), THREADS, and "directus" (POST /auth/refresh, JSON) or
-- "oauth CLIENT_ID" (POST /oauth/token, refresh grant of a public client).
-- A request with no chain left (every chain broken by a failed answer) sends an
-- unusable token and counts in `starved`.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

starved = 0
local ready, first, last = {}, 1, 0
local shape, client
local json = { ["Content-Type"] = "application/json" }
local form = { ["Content-Type"] = "application/x-www-form-urlencoded" }

local function push(token)
   last = last + 1
   ready[last] = token
end

local function pop()
   if first > last then return nil end
   local token = ready[first]
   ready[first] = nil
   first = first + 1
   return token
end

local function form_escape(text)
   return (text:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

function init(args)
   local threads = tonumber(args[2])
   shape, client = args[3], args[4]
   local line = 0
   for token in io.lines(args[1]) do
      if line % threads == id then push(token) end
      line = line + 1
   end
end

function request()
   local token = pop()
   if token == nil then
      starved = starved + 1
      token = "starved"
   end
   if shape == "oauth" then
      return wrk.format("POST", nil, form, "grant_type=refresh_token&refresh_token=" .. form_escape(token)
         .. "&client_id=" .. form_escape(client))
   end
   return wrk.format("POST", nil, json, '{"refresh_token":"' .. token .. '","mode":"json"}')
end

function response(status, headers, body)
   if status == 200 then
      local token = body:match('"refresh_token"%s*:%s*"([^"]+)"')
      if token then push(token) end
   end
end

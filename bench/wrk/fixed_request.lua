-- POSTs the same request every time, read from a file: header lines ("Name: value"),
-- a blank line, then the body exactly as sent. Argument: that file.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

function init(args)
   local file = assert(io.open(args[1], "rb"))
   local text = file:read("*a")
   file:close()
   local head, body = text:match("^(.-)\n\n(.*)$")
   for name, value in head:gmatch("([^:\n]+):%s*([^\n]*)") do
      wrk.headers[name] = value
   end
   wrk.method = "POST"
   wrk.body = body
end

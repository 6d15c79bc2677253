-- Shared by every wrk script of bench/run.py (and usable alone): numbers each thread
-- (global `id`, from 0) and, when wrk finishes, prints its totals as one line
-- "BENCH-RESULT {json}" for bench/loadgen.py to read. A script may count, in a global
-- `starved` of its thread, requests it had to send without the input it needed.
local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

function done(summary, latency, requests)
   local starved = 0
   for _, thread in ipairs(threads) do
      starved = starved + (thread:get("starved") or 0)
   end
   local errors = summary.errors
   io.write(string.format(
      'BENCH-RESULT {"requests":%d,"duration_us":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,'
         .. '"status_errors":%d,"timeouts":%d,"starved":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
      summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
      starved, latency:percentile(50), latency:percentile(99), latency.max))
end

-- Sluice access handler for nginx (lua-nginx-module): asks the Sluice agent
-- whether each request may pass, answers the agent's denials, fails open when
-- the agent does not answer in time, and reports the end of flows that flux
-- meters measure as OTLP spans (POST /v1/traces). See docs/guides/nginx.md.
local cjson = require("cjson.safe")
local semaphore = require("ngx.semaphore")

local M = {}

local cfg = {
  control_point = "ingress",
  -- The agent's HTTP address. Checks go over one stream per worker (a connection upgraded to
  -- sluice-checkhttp-ndjson, a check per line); flow ends (OTLP/HTTP JSON spans) over kept-alive
  -- connections.
  agent_host = "127.0.0.1",
  agent_port = 8080,
  -- A check that gets no connection within check_connect_timeout_ms, or no answer within
  -- check_timeout_ms, lets the request through (fail open).
  check_connect_timeout_ms = 100,
  check_timeout_ms = 500,
  -- Checks a worker holds while its stream to the agent is busy; more fail open.
  check_queue_size = 10000,
  -- Idle connections a worker keeps to the agent for flow ends.
  agent_pool_size = 16,
  flow_end_timeout_ms = 1000,
  -- Spans per OTLP export, and how many ended flows a worker holds while exports are slow.
  flow_end_batch_size = 64,
  flow_end_queue_size = 10000,
  shared_dict = "sluice",
}

local counters = { "checks", "accepted", "rejected", "fail_open", "flow_ends", "flow_end_errors" }

--- Sets options (init_by_lua). Unknown keys are refused so that a typo shows at start-up.
function M.configure(opts)
  for k, v in pairs(opts or {}) do
    if cfg[k] == nil then error("sluice: unknown option " .. tostring(k)) end
    if type(v) ~= type(cfg[k]) then error("sluice: option " .. k .. " wants a " .. type(cfg[k])) end
    cfg[k] = v
  end
end

local function count(name, n)
  local dict = ngx.shared[cfg.shared_dict]
  if dict then dict:incr(name, n or 1, 0) end
end

local function request_headers()
  local out = {}
  for k, v in pairs(ngx.req.get_headers(100)) do
    if type(v) == "table" then v = table.concat(v, ",") end
    out[k] = v
  end
  return out
end

local function check_body(control_point)
  local var = ngx.var
  return cjson.encode({
    control_point = control_point,
    source = { address = var.remote_addr, port = tonumber(var.remote_port) or 0, protocol = "TCP" },
    destination = { address = var.server_addr, port = tonumber(var.server_port) or 0, protocol = "TCP" },
    request = {
      method = ngx.req.get_method(),
      path = var.request_uri,
      host = var.host,
      scheme = var.scheme,
      size = tonumber(var.content_length) or 0,
      protocol = var.server_protocol,
      headers = request_headers(),
    },
  })
end

local function fail_open(why)
  count("fail_open")
  ngx.log(ngx.WARN, "sluice: agent check failed, request let through (fail open): ", why)
end

-- A varint of `data` at byte `i`: its value and the byte after it (nil past the end).
local function varint(data, i)
  local value, scale = 0, 1
  while i <= #data do
    local b = data:byte(i)
    value = value + (b % 128) * scale
    i = i + 1
    if b < 128 then return value, i end
    scale = scale * 128
  end
  return nil
end

-- Whether a CheckResponse protobuf names flux meters (field 11, flux_meter_infos): only then does
-- the agent measure the flow, and only then is its end worth a span.
local function measured(check_response)
  local data = ngx.decode_base64(check_response)
  if data == nil then return false end
  local i = 1
  while i <= #data do
    local key
    key, i = varint(data, i)
    if key == nil then return false end
    local field, wire = math.floor(key / 8), key % 8
    if field == 11 then return true end
    if wire == 0 then
      local _
      _, i = varint(data, i)
      if i == nil then return false end
    elseif wire == 1 then i = i + 8
    elseif wire == 2 then
      local len
      len, i = varint(data, i)
      if len == nil then return false end
      i = i + len
    elseif wire == 5 then i = i + 4
    else return false end
  end
  return false
end

-- POST `body` (JSON) to the agent over a pooled keep-alive cosocket: the answer's status, an error
-- (nil when an answer came) and its body. A connection goes back to the pool only after a whole
-- answer with a Content-Length and no `Connection: close`.
local function agent_post(path, body, connect_timeout_ms, timeout_ms)
  local sock = ngx.socket.tcp()
  sock:settimeouts(connect_timeout_ms, timeout_ms, timeout_ms)
  local ok, err = sock:connect(cfg.agent_host, cfg.agent_port, { pool = "sluice_agent", pool_size = cfg.agent_pool_size })
  if not ok then return nil, "connect: " .. tostring(err) end
  local _, serr = sock:send({
    "POST ", path, " HTTP/1.1\r\nHost: ", cfg.agent_host, "\r\nContent-Type: application/json\r\nContent-Length: ",
    tostring(#body), "\r\n\r\n", body,
  })
  if serr then sock:close(); return nil, "send: " .. serr end
  local line, rerr = sock:receive("*l")
  if not line then sock:close(); return nil, "receive: " .. tostring(rerr) end
  local status = tonumber(line:match("^HTTP/1%.%d (%d%d%d)"))
  local length, chunked, keep = nil, false, true
  while true do
    local h, herr = sock:receive("*l")
    if not h then sock:close(); return nil, "headers: " .. tostring(herr) end
    if h == "" then break end
    local name, value = h:match("^([^:]+):%s*(.-)%s*$")
    if name then
      name = name:lower()
      if name == "content-length" then length = tonumber(value)
      elseif name == "transfer-encoding" and value:lower():find("chunked", 1, true) then chunked = true
      elseif name == "connection" and value:lower() == "close" then keep = false end
    end
  end
  local answer = ""
  if chunked or length == nil then
    keep = false
  elseif length > 0 then
    local data, berr = sock:receive(length)
    if berr then sock:close(); return nil, "body: " .. berr end
    answer = data
  end
  if keep then sock:setkeepalive(60000) else sock:close() end
  return status, nil, answer
end

-- The check stream, one per worker: a connection to the agent upgraded to sluice-checkhttp-ndjson,
-- held by a timer. A request queues its check as a line and waits on its own semaphore; the timer
-- sends what is queued in one write, and its reader hands each answer line to the request waiting
-- for that id. Many checks then cost the agent one write and one read, not an HTTP exchange each.
local STREAM_PATH = "/v1/flowcontrol/checkhttp/stream"
local stream = {
  state = "idle", -- idle (not started), connecting, up, down (waiting to reconnect)
  reason = nil,   -- why it is down
  queue = {},     -- lines to send
  waiting = {},   -- id -> { sema, answer, error }
  next_id = 0,
  wake = nil,     -- posted when a line is queued or the reader stops
  reader_error = nil,
  was_up = false,
}

-- Wakes every waiting request with `why` (they fail open) and drops what was not sent.
local function fail_waiting(why)
  for id, w in pairs(stream.waiting) do
    stream.waiting[id] = nil
    w.error = why
    w.sema:post(1)
  end
  stream.queue = {}
end

local function read_answers(sock)
  local partial = ""
  while true do
    local line, err, part = sock:receive("*l")
    if line then
      line, partial = partial .. line, ""
      local answer = cjson.decode(line)
      local id = type(answer) == "table" and answer.id or nil
      local w = id and stream.waiting[id]
      if w then
        stream.waiting[id] = nil
        w.answer = answer
        w.sema:post(1)
      elseif type(answer) == "table" and type(answer.error) == "table" then
        ngx.log(ngx.WARN, "sluice: the agent refused a check line: ", tostring(answer.error.message))
      end
    elseif err == "timeout" then
      -- An idle stream: nothing to answer. Keep what came of a line so far.
      partial = partial .. (part or "")
    else
      return err
    end
  end
end

local function connect()
  local sock = ngx.socket.tcp()
  sock:settimeouts(cfg.check_connect_timeout_ms, cfg.check_timeout_ms, cfg.check_timeout_ms)
  local ok, err = sock:connect(cfg.agent_host, cfg.agent_port)
  if not ok then return nil, "connect: " .. tostring(err) end
  local _, serr = sock:send({
    "GET ", STREAM_PATH, " HTTP/1.1\r\nHost: ", cfg.agent_host,
    "\r\nConnection: Upgrade\r\nUpgrade: sluice-checkhttp-ndjson\r\n\r\n",
  })
  if serr then sock:close(); return nil, "send: " .. serr end
  local line, rerr = sock:receive("*l")
  if not line then sock:close(); return nil, "upgrade: " .. tostring(rerr) end
  while true do
    local h, herr = sock:receive("*l")
    if not h then sock:close(); return nil, "upgrade: " .. tostring(herr) end
    if h == "" then break end
  end
  if not line:match("^HTTP/1%.1 101") then sock:close(); return nil, "upgrade refused: " .. line end
  sock:settimeouts(cfg.check_connect_timeout_ms, cfg.check_timeout_ms, 60000)
  return sock
end

-- Sends queued lines until the connection fails or nginx exits; answers why it stopped.
local function serve(sock)
  stream.reader_error = nil
  local reader = ngx.thread.spawn(function()
    stream.reader_error = "receive: " .. tostring(read_answers(sock))
    stream.wake:post(1)
  end)
  stream.state = "up"
  stream.was_up = true
  local why
  while true do
    if stream.reader_error then why = stream.reader_error; break end
    if ngx.worker.exiting() then why = "nginx is exiting"; break end
    if #stream.queue > 0 then
      local lines = stream.queue
      stream.queue = {}
      local _, err = sock:send(lines)
      if err then why = "send: " .. err; break end
    else
      stream.wake:wait(1)
    end
  end
  ngx.thread.kill(reader)
  sock:close()
  return why
end

local function run(premature)
  if premature then return end
  local backoff = 0.1
  while not ngx.worker.exiting() do
    stream.state = "connecting"
    local sock, why = connect()
    if sock then
      backoff = 0.1
      why = serve(sock)
    end
    stream.state, stream.reason = "down", why
    fail_waiting(why)
    if stream.was_up then
      ngx.log(ngx.WARN, "sluice: the check stream to the agent is down (requests fail open until it is back): ", why)
      stream.was_up = false
    end
    if ngx.worker.exiting() then return end
    ngx.sleep(backoff)
    backoff = math.min(backoff * 2, 2)
  end
end

local function start()
  stream.wake = stream.wake or semaphore.new()
  stream.state = "connecting"
  local ok, err = ngx.timer.at(0, run)
  if not ok then
    stream.state, stream.reason = "down", "timer: " .. tostring(err)
    ngx.log(ngx.ERR, "sluice: the check stream was not started: ", err)
  end
end

--- init_worker_by_lua: opens the worker's check stream before the first request (else the first
--- request opens it).
function M.init_worker()
  if stream.state == "idle" then start() end
end

-- The agent's answer to one check (a table with `response` or `error`), or nil and why not.
local function ask(body)
  if stream.state == "idle" then start() end
  if stream.state == "down" then return nil, "agent unavailable: " .. tostring(stream.reason) end
  if #stream.queue >= cfg.check_queue_size then return nil, "check queue full" end
  stream.next_id = stream.next_id + 1
  local id = stream.next_id
  local w = { sema = semaphore.new() }
  stream.waiting[id] = w
  stream.queue[#stream.queue + 1] = '{"id":' .. id .. ',"check":' .. body .. '}\n'
  stream.wake:post(1)
  local ok, err = w.sema:wait(cfg.check_timeout_ms / 1000)
  if not ok then
    stream.waiting[id] = nil
    return nil, err == "timeout" and ("no answer within " .. cfg.check_timeout_ms .. " ms") or tostring(err)
  end
  if w.error then return nil, w.error end
  return w.answer
end

--- access_by_lua: decide the request. `control_point` overrides the configured one.
function M.access(control_point)
  control_point = control_point or cfg.control_point
  count("checks")
  local line, err = ask(check_body(control_point))
  if not line then return fail_open(err) end
  if type(line.error) == "table" then return fail_open("agent error: " .. tostring(line.error.message)) end
  local answer = line.response
  if type(answer) ~= "table" then return fail_open("answer has no response") end
  local denied = answer.denied_response
  if type(denied) == "table" then
    count("rejected")
    local status = tonumber(denied.status) or 403
    if type(denied.headers) == "table" then
      for k, v in pairs(denied.headers) do ngx.header[k] = v end
    end
    ngx.status = status
    if type(denied.body) == "string" and denied.body ~= "" then ngx.print(denied.body) end
    return ngx.exit(status)
  end
  count("accepted")
  local ok = answer.ok_response
  if type(ok) == "table" and type(ok.headers) == "table" then
    for k, v in pairs(ok.headers) do ngx.req.set_header(k, v) end
  end
  -- The flow's CheckResponse (base64 protobuf): the agent reads the control point and the
  -- flux meters that measure the flow from it when the flow's span comes back.
  local metadata = answer.dynamic_metadata
  local check_response = type(metadata) == "table" and metadata["aperture.check_response"] or nil
  if type(check_response) == "string" and check_response ~= "" and measured(check_response) then
    ngx.ctx.sluice_check_response = check_response
  end
end

-- Spans of ended flows waiting for the export (per worker), and whether a timer will send them.
local pending = {}
local flushing = false

local function export_body(spans)
  return cjson.encode({
    resourceSpans = { {
      resource = { attributes = { { key = "service.name", value = { stringValue = "nginx" } } } },
      scopeSpans = { { scope = { name = "sluice-nginx" }, spans = spans } },
    } },
  })
end

local function export_batch(batch)
  local status, err, answer = agent_post("/v1/traces", export_body(batch), cfg.flow_end_timeout_ms, cfg.flow_end_timeout_ms)
  if status ~= 200 then
    count("flow_end_errors", #batch)
    ngx.log(ngx.WARN, "sluice: ", #batch, " flow end(s) not delivered: ", err or ("status " .. tostring(status)))
    return
  end
  -- An ExportTraceServiceResponse: partialSuccess names the spans the agent refused.
  local reply = cjson.decode(answer or "")
  local partial = type(reply) == "table" and reply.partialSuccess or nil
  local refused = type(partial) == "table" and tonumber(partial.rejectedSpans) or 0
  if refused > 0 then
    count("flow_end_errors", refused)
    ngx.log(ngx.WARN, "sluice: the agent refused ", refused, " flow end(s): ", tostring(partial.errorMessage))
  end
  count("flow_ends", #batch - refused)
end

local function flush(premature)
  if not premature then
    while #pending > 0 do
      local batch = pending
      if #batch > cfg.flow_end_batch_size then
        batch = {}
        local rest = {}
        for i, span in ipairs(pending) do
          if i <= cfg.flow_end_batch_size then batch[i] = span else rest[#rest + 1] = span end
        end
        pending = rest
      else
        pending = {}
      end
      export_batch(batch)
    end
  end
  flushing = false
end

local function unix_nanos(seconds)
  return string.format("%d000000", math.floor(seconds * 1000 + 0.5))
end

local function random_hex(bytes)
  local out = {}
  for i = 1, bytes do out[i] = string.format("%02x", math.random(0, 255)) end
  return table.concat(out)
end

--- log_by_lua: report the end of a flow the agent measures (flux meters) as an OTLP span, the way
--- Aperture's gateway plugins do: the check response, the workload's status, start and end times.
function M.log()
  local check_response = ngx.ctx.sluice_check_response
  if check_response == nil then return end
  if #pending >= cfg.flow_end_queue_size then
    count("flow_end_errors")
    return
  end
  local status = ngx.status
  pending[#pending + 1] = {
    traceId = random_hex(16),
    spanId = random_hex(8),
    name = "sluice.flow",
    kind = 2,
    startTimeUnixNano = unix_nanos(ngx.req.start_time()),
    endTimeUnixNano = unix_nanos(ngx.now()),
    attributes = {
      { key = "aperture.source", value = { stringValue = "lua" } },
      { key = "aperture.check_response", value = { stringValue = check_response } },
      { key = "aperture.flow.status", value = { stringValue = status >= 500 and "Error" or "OK" } },
      { key = "http.status_code", value = { intValue = tostring(status) } },
    },
  }
  if flushing then return end
  local ok, err = ngx.timer.at(0, flush)
  if ok then
    flushing = true
  else
    count("flow_end_errors")
    ngx.log(ngx.WARN, "sluice: flow end not scheduled: ", err)
  end
end

--- content_by_lua: the counters as JSON.
function M.status()
  local dict = ngx.shared[cfg.shared_dict]
  local out = {}
  for _, name in ipairs(counters) do out[name] = dict and dict:get(name) or 0 end
  ngx.header["Content-Type"] = "application/json"
  ngx.say(cjson.encode(out))
end

return M

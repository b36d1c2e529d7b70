-- Sluice access handler for nginx (lua-nginx-module): asks the Sluice agent
-- whether each request may pass, answers the agent's denials, fails open when
-- the agent does not answer in time, and reports the end of flows that flux
-- meters measure as OTLP spans (POST /v1/traces). See docs/guides/nginx.md.
local cjson = require("cjson.safe")

local M = {}

local cfg = {
  check_location = "/_sluice_check",
  control_point = "ingress",
  -- Where flow ends (OTLP/HTTP JSON spans) go: the agent's HTTP address, reached from a timer with a
  -- kept-alive cosocket (subrequests are not available after the response).
  agent_host = "127.0.0.1",
  agent_port = 8080,
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

--- access_by_lua: decide the request. `control_point` overrides the configured one.
function M.access(control_point)
  control_point = control_point or cfg.control_point
  count("checks")
  local res = ngx.location.capture(cfg.check_location, { method = ngx.HTTP_POST, body = check_body(control_point) })
  if res.status ~= 200 then
    return fail_open("status " .. tostring(res.status) .. (res.truncated and " (truncated)" or ""))
  end
  local answer = cjson.decode(res.body)
  if type(answer) ~= "table" then return fail_open("answer is not JSON") end
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

local function http_post(path, body)
  local sock = ngx.socket.tcp()
  sock:settimeout(cfg.flow_end_timeout_ms)
  local ok, err = sock:connect(cfg.agent_host, cfg.agent_port, { pool = "sluice_agent" })
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
  if keep then sock:setkeepalive(60000, 16) else sock:close() end
  return status, nil, answer
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
  local status, err, answer = http_post("/v1/traces", export_body(batch))
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

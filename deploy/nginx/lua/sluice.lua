-- Sluice access handler for nginx (lua-nginx-module): asks the Sluice agent
-- whether each request may pass, answers the agent's denials, fails open when
-- the agent does not answer in time, and reports the end of flows that flux
-- meters measure. See docs/guides/nginx.md.
local cjson = require("cjson.safe")

local M = {}

local cfg = {
  check_location = "/_sluice_check",
  control_point = "ingress",
  -- Where flow ends go: the agent's HTTP address, reached from a timer with a
  -- kept-alive cosocket (subrequests are not available after the response).
  agent_host = "127.0.0.1",
  agent_port = 8080,
  flow_end_timeout_ms = 1000,
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

local function count(name)
  local dict = ngx.shared[cfg.shared_dict]
  if dict then dict:incr(name, 1, 0) end
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
    for _, h in ipairs(denied.headers or {}) do ngx.header[h.key] = h.value end
    ngx.status = status
    if type(denied.body) == "string" and denied.body ~= "" then ngx.print(denied.body) end
    return ngx.exit(status)
  end
  count("accepted")
  local ok = answer.ok_response
  if type(ok) == "table" then
    for _, h in ipairs(ok.headers or {}) do ngx.req.set_header(h.key, h.value) end
  end
  if type(answer.flow_id) == "string" and answer.flow_id ~= "" then
    ngx.ctx.sluice_flow = { control_point = control_point, flow_id = answer.flow_id }
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
  if chunked or length == nil then
    keep = false
  elseif length > 0 then
    local _, berr = sock:receive(length)
    if berr then sock:close(); return nil, "body: " .. berr end
  end
  if keep then sock:setkeepalive(60000, 16) else sock:close() end
  return status
end

local function send_flow_end(premature, flow)
  if premature then return end
  local status, err = http_post("/v1/flowcontrol/flowend", cjson.encode(flow))
  if status == 200 then
    count("flow_ends")
  else
    count("flow_end_errors")
    ngx.log(ngx.WARN, "sluice: flow end not delivered: ", err or ("status " .. tostring(status)))
  end
end

--- log_by_lua: report the end of a flow the agent measures (flux meters): the workload's status and duration.
function M.log()
  local flow = ngx.ctx.sluice_flow
  if flow == nil then return end
  local duration = tonumber(ngx.var.request_time) or 0
  flow.status_code = ngx.status
  flow.duration = string.format("%.3fs", duration)
  local ok, err = ngx.timer.at(0, send_flow_end, flow)
  if not ok then
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

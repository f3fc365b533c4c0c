-- End to end with a real LSP client: Neovim's built-in client (headless) drives `hintkit lsp`
-- on files from examples/: diagnostics, hover, completion and code actions applied to the
-- buffer. The client is started by the README's Neovim snippet, read from README.md here (so
-- the README cannot drift from what is tested), with `hintkit` found on PATH as a user's is.
--
-- HINTKIT_NVIM_BRANCH picks the snippet's branch that runs:
--   fallback  vim.lsp.start is removed if the Neovim has it (0.7, Debian 12's, has none): the
--             start_client/buf_attach_client branch runs as it does on 0.7.
--   start     the vim.lsp.start branch. On 0.8+ that is Neovim's own vim.lsp.start. On 0.7 a
--             shim stands in for it, written after 0.8's: reuse a client of the same name and
--             root_dir (among those it started, initialized or not) and attach the current
--             buffer, else start_client and attach. What that proves on 0.7: the branch's own
--             code runs and its config starts a working server that every YAML buffer shares
--             through 0.8's reuse rule; not that 0.8's vim.lsp.start itself behaves so.
-- Run: HINTKIT=... REPO_ROOT=... HINTKIT_NVIM_BRANCH=... nvim --headless --clean \
--        -c "luafile nvim_e2e.lua"
-- Exits 0 when every check passes (prints "N passed, M failed").
local hintkit = os.getenv("HINTKIT")
local root = os.getenv("REPO_ROOT")
local branch = os.getenv("HINTKIT_NVIM_BRANCH") or "fallback"
local passed, failed = 0, 0

local function check(ok, what)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    io.stdout:write("FAIL: " .. what .. "\n")
  end
end

local function finish()
  io.stdout:write(string.format("%d passed, %d failed\n", passed, failed))
  vim.cmd(failed == 0 and "qa!" or "cq!")
end

-- The first ```lua block of README.md's section "Editors: `hintkit lsp`".
local function readme_snippet()
  local f = assert(io.open(root .. "/README.md", "r"))
  local readme = f:read("*a")
  f:close()
  local section = readme:find("\n## Editors: `hintkit lsp`\n", 1, true)
  assert(section, "README.md has no section Editors: `hintkit lsp`")
  local next_section = readme:find("\n## ", section + 1, true) or #readme
  local open = readme:find("\n```lua\n", section, true)
  assert(open and open < next_section, "no lua block in the Editors section")
  local close = readme:find("\n```\n", open + 1, true)
  return readme:sub(open + #"\n```lua\n", close)
end

-- Every client named hintkit, initialized or not.
local function hintkit_clients()
  local ids = {}
  for id = 1, 100 do
    local c = vim.lsp.get_client_by_id(id)
    if c and c.name == "hintkit" then table.insert(ids, id) end
  end
  return ids
end

local function attached(bufnr)
  local ids = {}
  for id, _ in pairs(vim.lsp.buf_get_clients(bufnr)) do table.insert(ids, id) end
  return ids
end

local ok, err = pcall(function()
  vim.env.PATH = vim.fn.fnamemodify(hintkit, ":h") .. ":" .. vim.env.PATH
  local calls = { start = 0, start_client = 0 }
  if branch == "fallback" then
    vim.lsp.start = nil
  elseif not vim.lsp.start then
    local started = {}
    vim.lsp.start = function(config)
      local bufnr = vim.api.nvim_get_current_buf()
      for _, id in ipairs(started) do
        local c = vim.lsp.get_client_by_id(id)
        if c and c.name == config.name and c.config.root_dir == config.root_dir then
          vim.lsp.buf_attach_client(bufnr, id)
          return id
        end
      end
      local id = vim.lsp.start_client(config)
      if id == nil then return nil end
      table.insert(started, id)
      vim.lsp.buf_attach_client(bufnr, id)
      return id
    end
  end
  if vim.lsp.start then
    local start = vim.lsp.start
    vim.lsp.start = function(...)
      calls.start = calls.start + 1
      return start(...)
    end
  end
  local start_client = vim.lsp.start_client
  vim.lsp.start_client = function(...)
    calls.start_client = calls.start_client + 1
    return start_client(...)
  end
  local snippet = readme_snippet()
  check(snippet:find("vim.lsp.start(config)", 1, true) and snippet:find("start_client", 1, true),
        "the README snippet has both branches")
  assert((loadstring or load)(snippet, "README.md snippet"))()

  -- Diagnostics on a hint file full of mistakes.
  vim.cmd("edit " .. root .. "/examples/broken/tazuna.hint.yaml")
  local broken = vim.api.nvim_get_current_buf()
  check(vim.bo[broken].filetype == "yaml", "the hint file is a YAML buffer")
  if branch == "fallback" then
    check(calls.start == 0 and calls.start_client == 1, "the fallback branch started the client")
  else
    check(calls.start == 1, "the vim.lsp.start branch ran")
  end
  local clients = hintkit_clients()
  check(#clients == 1, "one hintkit client (got " .. #clients .. ")")
  local client_id = clients[1]
  vim.wait(15000, function() return #vim.diagnostic.get(broken) > 0 end, 50)
  check(vim.deep_equal(attached(broken), { client_id }), "the buffer is attached to it")
  local diags = vim.diagnostic.get(broken)
  check(#diags == 6, "6 diagnostics on examples/broken (got " .. #diags .. ")")
  local by_line = {}
  for _, d in ipairs(diags) do by_line[d.lnum] = d end
  check(by_line[5] ~= nil and by_line[5].message:find("requried", 1, true) ~= nil,
        "the misspelled key is reported on its line")
  check(by_line[5] ~= nil and by_line[5].col == 4, "at its column")

  -- A code action for the did-you-mean, asked for as Neovim asks (the cursor's range) with the
  -- cursor in column 1 of the line, left of the misspelt key; applied to the buffer.
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  local params = vim.lsp.util.make_range_params()
  check(params.range.start.character == 0, "the request is made from column 1")
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(broken) }
  local responses = vim.lsp.buf_request_sync(broken, "textDocument/codeAction", params, 10000)
  local action
  for _, r in pairs(responses or {}) do
    if r.result and r.result[1] then action = r.result[1] end
  end
  check(action ~= nil and action.title == 'Replace with "required"', "a quickfix is offered")
  if action then
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
    local line = vim.api.nvim_buf_get_lines(broken, 5, 6, false)[1]
    check(line == "    required: true", "the quickfix fixed the line: " .. tostring(line))
  end

  -- HK114 on `default: 8080` of a string var: the quick fix quotes it, from column 1 too.
  vim.api.nvim_win_set_cursor(0, { 13, 0 })
  params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = {} }
  responses = vim.lsp.buf_request_sync(broken, "textDocument/codeAction", params, 10000)
  action = nil
  for _, r in pairs(responses or {}) do
    if r.result and r.result[1] then action = r.result[1] end
  end
  check(action ~= nil and action.title == 'Quote the default: "8080"', "HK114 quick fix offered")
  if action then
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
    local line = vim.api.nvim_buf_get_lines(broken, 12, 13, false)[1]
    check(line == '    default: "8080"', "the HK114 fix quoted the default: " .. tostring(line))
  end

  -- Hover and completion on the example API's hint.
  vim.cmd("edit " .. root .. "/examples/api/tazuna.hint.yaml")
  local api = vim.api.nvim_get_current_buf()
  -- A second YAML buffer shares the first one's server.
  check(#hintkit_clients() == 1 and vim.deep_equal(attached(api), { client_id }),
        "the second YAML buffer is attached to the same client (" ..
        vim.inspect(hintkit_clients()) .. ", " .. vim.inspect(attached(api)) .. ")")
  check(calls.start_client == 1, "the server was started once")
  local lines = vim.api.nvim_buf_get_lines(api, 0, -1, false)
  local host_line
  for i, l in ipairs(lines) do
    if l:match("^  ingressHost:") then host_line = i - 1 end
  end
  local hover = vim.lsp.buf_request_sync(api, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(api) },
    position = { line = host_line, character = 4 },
  }, 10000)
  local text = ""
  for _, r in pairs(hover or {}) do
    if r.result then text = r.result.contents.value end
  end
  check(text:find("ingressHost", 1, true) and text:find("hostname", 1, true),
        "hover names the var and its format: " .. text)

  vim.api.nvim_buf_set_lines(api, host_line + 1, host_line + 1, false, { "    format: " })
  local completion = vim.lsp.buf_request_sync(api, "textDocument/completion", {
    textDocument = { uri = vim.uri_from_bufnr(api) },
    position = { line = host_line + 1, character = 12 },
  }, 10000)
  local labels = {}
  for _, r in pairs(completion or {}) do
    for _, item in ipairs(r.result or {}) do labels[item.label] = true end
  end
  check(labels["hostname"] and labels["semver"] and labels["cidr"], "format completion")

  -- Hover on a ytt data value shows the schema's node: `port: 5433` in the values file has the
  -- schema's default 5432 and type.
  vim.cmd("edit " .. root .. "/examples/ytt/values.yaml")
  local ytt_values = vim.api.nvim_get_current_buf()
  check(vim.deep_equal(attached(ytt_values), { client_id }), "the ytt values buffer is attached")
  local port_line
  for i, l in ipairs(vim.api.nvim_buf_get_lines(ytt_values, 0, -1, false)) do
    if l:match("^  port: 5433") then port_line = i - 1 end
  end
  hover = vim.lsp.buf_request_sync(ytt_values, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(ytt_values) },
    position = { line = port_line, character = 3 },
  }, 10000)
  text = ""
  for _, r in pairs(hover or {}) do
    if r.result then text = r.result.contents.value end
  end
  check(text:find("`int`", 1, true) and text:find("default: `5432`", 1, true)
        and not text:find("5433", 1, true), "ytt hover comes from the schema: " .. text)

  -- ytt problems: one diagnostic per value at its own line, a one-line message, the schema's
  -- place of the type as related information.
  local ydir = vim.fn.tempname()
  vim.fn.mkdir(ydir, "p")
  vim.fn.writefile({ "#@data/values-schema", "---", "replicas: 2", "name: web" }, ydir .. "/schema.yaml")
  vim.fn.writefile({ "#@data/values", "---", "replicas: many", "name: 3" }, ydir .. "/values.yaml")
  vim.cmd("edit " .. ydir .. "/values.yaml")
  local ybuf = vim.api.nvim_get_current_buf()
  vim.wait(15000, function() return #vim.diagnostic.get(ybuf) >= 2 end, 50)
  local ydiags = vim.diagnostic.get(ybuf)
  table.sort(ydiags, function(a, b) return a.lnum < b.lnum end)
  check(#ydiags == 2 and ydiags[1].lnum == 2 and ydiags[2].lnum == 3,
        "two ytt diagnostics at their lines: " .. vim.inspect(ydiags))
  if #ydiags == 2 then
    local related = ydiags[1].user_data.lsp.relatedInformation or {}
    check(not ydiags[1].message:find("\n") and ydiags[1].message:find("found string", 1, true)
          and #related == 1 and related[1].location.uri == vim.uri_from_fname(ydir .. "/schema.yaml")
          and related[1].location.range.start.line == 2,
          "one-line message, related to the schema's line: " .. vim.inspect(ydiags[1]))
  end
  vim.fn.delete(ydir, "rf")

  vim.lsp.stop_client(client_id)
end)
check(ok, "no Lua error: " .. tostring(err))
finish()

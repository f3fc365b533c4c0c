-- End to end with a real LSP client: Neovim's built-in client (headless) drives `hintkit lsp`
-- on files from examples/: diagnostics, hover, completion and a code action applied to the
-- buffer. Run: HINTKIT=... REPO_ROOT=... nvim --headless --clean -c "luafile nvim_e2e.lua"
-- Exits 0 when every check passes (prints "N passed, M failed").
local hintkit = os.getenv("HINTKIT")
local root = os.getenv("REPO_ROOT")
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

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = "hintkit",
    cmd = { hintkit, "lsp" },
    root_dir = root,
  })
  check(client_id ~= nil, "the client starts hintkit lsp")

  -- Diagnostics on a hint file full of mistakes.
  vim.cmd("edit " .. root .. "/examples/broken/tazuna.hint.yaml")
  local broken = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(broken, client_id)
  vim.wait(15000, function() return #vim.diagnostic.get(broken) > 0 end, 50)
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
  vim.lsp.buf_attach_client(api, client_id)
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

  vim.lsp.stop_client(client_id)
end)
check(ok, "no Lua error: " .. tostring(err))
finish()

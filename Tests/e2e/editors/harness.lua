-- Drives Neovim 0.7's built-in LSP client against `memo serve`, headless. Loaded by
-- Tests/e2e/editors.py as `nvim --headless --clean -c "lua require('harness').main(NAME)"`
-- with MEMO_TEST_BINARY, MEMO_TEST_STORE, MEMO_TEST_DIR, MEMO_TEST_OUT (the JSON file the
-- observations go to) and MEMO_TEST_EVENTS (where the LSP log, the JSON-RPC traffic at
-- debug level, is copied) in the environment.
--
-- A scenario runs in a coroutine resumed from timers, so that between its steps Neovim's
-- main loop runs as it does for a user: it reads the server's messages, and processes the
-- keys fed to it (insert mode, <C-x><C-o>, the popup menu). Every wait is bounded.
local M = {}
local results = {}
local notes = {}

function M.record(key, value)
  results[key] = value
  return value
end

function M.note(format, ...)
  table.insert(notes, string.format(format, ...))
  results.notes = notes
end

function M.getenv(name) return os.getenv(name) end

function M.file(name) return os.getenv("MEMO_TEST_DIR") .. "/" .. name end

-- Steps

-- Lets Neovim's main loop run for MS milliseconds, then resumes the scenario.
local function yield_to_the_main_loop(ms)
  local thread = coroutine.running()
  vim.defer_fn(function() M.resume(thread) end, ms)
  coroutine.yield()
end

-- Waits until predicate() is truthy or ms (5000) pass; returns its last value.
function M.wait(predicate, ms)
  local deadline = vim.loop.now() + (ms or 5000)
  while true do
    local ok, value = pcall(predicate)
    if ok and value then return value end
    if vim.loop.now() >= deadline then return nil end
    yield_to_the_main_loop(20)
  end
end

-- Types KEYS (with <...> notation) as a user would, and waits until Neovim has read them all.
function M.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "t", false)
  M.wait(function() return vim.fn.getchar(1) == 0 end, 5000)
end

-- Waits until the server has handled everything sent to it, and Neovim everything the server
-- sent before: the answer to a request sent now comes after all of it.
function M.settle()
  local answered = false
  M.client().request("memo/tags", {}, function() answered = true end)
  M.wait(function() return answered end, 5000)
end

-- The user's configuration, as the README gives it for Neovim (0.7 has no vim.lsp.start,
-- so one client is started and every buffer of these file types is attached to it).
local client_id
local function attach(buffer)
  if not client_id then
    client_id = vim.lsp.start_client({
      name = "memo",
      cmd = { os.getenv("MEMO_TEST_BINARY"), "--store", os.getenv("MEMO_TEST_STORE"), "serve" },
      root_dir = os.getenv("MEMO_TEST_DIR"),
    })
  end
  vim.lsp.buf_attach_client(buffer, client_id)
  vim.bo[buffer].omnifunc = "v:lua.vim.lsp.omnifunc"
end

-- Restarts the server as a user does (stops the client, starts another): every buffer the
-- client had is attached to the new one, which opens it with the buffer's text.
function M.restart()
  local old = M.client()
  local buffers = vim.tbl_keys(old.attached_buffers)
  old.stop()
  M.wait(function() return old.is_stopped() end, 5000)
  client_id = nil
  for _, buffer in ipairs(buffers) do attach(buffer) end
  M.wait(function() return M.client().initialized end, 10000)
end

local function setup()
  vim.lsp.set_log_level("debug")
  vim.cmd("autocmd BufRead,BufNewFile *.memo setfiletype memo")
  vim.o.completeopt = "menuone,noinsert,noselect"
  vim.o.swapfile = false
  vim.o.shortmess = vim.o.shortmess .. "F"
  vim.api.nvim_create_autocmd("FileType", {
    pattern = { "memo", "markdown", "text", "css" },
    callback = function(event) attach(event.buf) end,
  })
end

function M.client() return client_id and vim.lsp.get_client_by_id(client_id) end

-- Opens FILE (:edit) and waits for the client to be initialized and attached.
function M.open(name)
  vim.cmd("edit " .. vim.fn.fnameescape(M.file(name)))
  local buffer = vim.api.nvim_get_current_buf()
  if not M.wait(function()
    local client = M.client()
    return client and client.initialized and vim.lsp.buf_is_attached(buffer, client_id)
  end, 10000) then
    error("the LSP client did not start for " .. name)
  end
  return buffer
end

-- Puts the cursor on the first STRING of the buffer, plus OFFSET bytes.
function M.search(string, offset)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local column = line:find(string, 1, true)
    if column then
      vim.api.nvim_win_set_cursor(0, { row, column - 1 + (offset or 0) })
      return
    end
  end
  error("no " .. string .. " in the buffer")
end

function M.text(buffer)
  return table.concat(vim.api.nvim_buf_get_lines(buffer or 0, 0, -1, false), "\n")
end

function M.line() return vim.api.nvim_get_current_line() end

-- The buffer text an LSP range covers (positions in the client's encoding, UTF-16).
function M.range_text(buffer, range)
  local lines = vim.api.nvim_buf_get_lines(buffer, range.start.line, range.start.line + 1, false)
  local line = lines[1] or ""
  local ok1, first = pcall(vim.str_byteindex, line, range.start.character, true)
  local ok2, last = pcall(vim.str_byteindex, line, range["end"].character, true)
  if not (ok1 and ok2) then return "<out of range>" end
  return line:sub(first + 1, last)
end

-- What Neovim shows

M.severities = { "error", "warning", "information", "hint" }

-- The buffer's diagnostics once predicate(list) (default: non-empty) holds or ms pass.
function M.diagnostics(buffer, ms, predicate)
  predicate = predicate or function(list) return #list > 0 end
  local list
  M.wait(function()
    list = {}
    for _, d in ipairs(vim.diagnostic.get(buffer)) do
      local line = vim.api.nvim_buf_get_lines(buffer, d.lnum, d.lnum + 1, false)[1] or ""
      table.insert(list, { line = d.lnum + 1, begin = d.col, ["end"] = d.end_col, text = line:sub(d.col + 1, d.end_col),
                           severity = M.severities[d.severity], message = d.message })
    end
    table.sort(list, function(a, b) return a.line < b.line or (a.line == b.line and a.begin < b.begin) end)
    return predicate(list)
  end, ms)
  return list
end

-- A raw request, for what Neovim 0.7 has no function for (document links, inlay hints).
function M.request(method, params)
  local responses = vim.lsp.buf_request_sync(0, method, params, 5000)
  for _, response in pairs(responses or {}) do
    if response.err then error(method .. ": " .. vim.inspect(response.err)) end
    return response.result
  end
end

function M.links()
  local buffer = vim.api.nvim_get_current_buf()
  local links = {}
  for _, link in ipairs(M.request("textDocument/documentLink", { textDocument = vim.lsp.util.make_text_document_params() }) or {}) do
    table.insert(links, { line = link.range.start.line + 1, text = M.range_text(buffer, link.range), target = link.target })
  end
  return links
end

-- K: vim.lsp.buf.hover(), then the text of the floating window it opens (nil if none).
-- A loaded machine can be slow to show the float, so K is pressed up to three times, as a
-- user would press it again.
function M.hover()
  for _, window in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(window).relative ~= "" then vim.api.nvim_win_close(window, true) end
  end
  local origin = vim.api.nvim_get_current_win()
  local float
  for _ = 1, 3 do
    vim.lsp.buf.hover()
    float = M.wait(function()
      for _, window in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(window).relative ~= "" then return window end
      end
    end, 5000)
    if float then break end
  end
  if not float then return nil end
  local text = M.text(vim.api.nvim_win_get_buf(float))
  vim.api.nvim_win_close(float, true)
  vim.api.nvim_set_current_win(origin)
  return text
end

-- <C-x><C-o> in insert mode at the cursor, then picks the first item whose word CHOOSE
-- accepts from the popup menu (<C-n> to it, <C-y>), as a user does. Returns the items
-- offered (words) and the chosen word.
function M.omni_complete(choose)
  M.feed("<C-x><C-o>")
  local info = M.wait(function()
    local info = vim.fn.complete_info({ "items", "mode", "pum_visible" })
    return #info.items > 0 and info
  end, 3000) or vim.fn.complete_info({ "items", "mode", "pum_visible" })
  local words, index = {}, nil
  for i, item in ipairs(info.items) do
    table.insert(words, item.word)
    if not index and choose(item.word) then index = i end
  end
  if index then
    M.feed(string.rep("<C-n>", index) .. "<C-y>")
  end
  M.feed("<Esc>")
  return words, index and words[index] or nil
end

-- The titles of the code actions vim.lsp.buf.range_code_action() offers for the last
-- visual selection; the one titled TITLE is chosen in vim.ui.select, as the user would.
function M.range_code_action(title)
  local offered, done = nil, false
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    local chosen
    for _, item in ipairs(items) do
      local text = opts.format_item(item)
      table.insert(offered, text)
      if text == title and not chosen then chosen = item end
    end
    on_choice(chosen)
    done = true
  end
  vim.lsp.buf.range_code_action()
  M.wait(function() return done end, 5000)
  vim.ui.select = select
  M.settle()  -- the server's workspace/applyEdit follows the answer to executeCommand
  return offered
end

-- Running

local function finish(status)
  local out = io.open(os.getenv("MEMO_TEST_OUT"), "w")
  out:write(vim.fn.json_encode(results))
  out:close()
  local client = M.client()
  if client then
    client.stop()
    vim.wait(3000, function() return client.is_stopped() end, 20)  -- maybe outside the coroutine
  end
  local log = io.open(vim.lsp.get_log_path(), "r")
  if log then
    local events = io.open(os.getenv("MEMO_TEST_EVENTS"), "w")
    events:write(log:read("*a"))
    events:close()
    log:close()
  end
  vim.cmd((status == 0 and "qall!") or ("cquit " .. status))
end

local threads = {}
function M.resume(thread)
  local ok, err = coroutine.resume(thread)
  if not ok then
    M.record("error", tostring(err) .. "\n" .. debug.traceback(thread))
    threads[thread] = nil
    finish(2)
  end
end

function M.main(name)
  local ok, err = pcall(function()
    setup()
    -- MEMO_TEST_SCENARIOS names another file of scenarios (lsp_features.lua), else scenarios.lua.
    local module = os.getenv("MEMO_TEST_SCENARIOS") or "scenarios"
    package.loaded[module] = nil
    local scenarios = require(module)
    local scenario = scenarios[name] or error("no scenario " .. name)
    vim.defer_fn(function()
      M.record("error", "the scenario did not end within 60 s")
      finish(3)
    end, 60000)
    local thread = coroutine.create(function()
      scenario(M)
      results.error = nil
      finish(0)
    end)
    threads[thread] = true
    vim.schedule(function() M.resume(thread) end)
  end)
  if not ok then
    M.record("error", tostring(err))
    finish(2)
  end
end

return M

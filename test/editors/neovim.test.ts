/**
 * The same bundled server driven by an LSP client nobody here wrote: headless Neovim's built-in
 * client (Debian `neovim`, 0.7). Neovim opens a fleet list, starts `fabled-star-language-server
 * --stdio`, and a Lua script reads the diagnostics from Neovim's own diagnostic store, asks for a
 * hover and a definition, and writes what it got to a JSON file for the assertions here.
 */
import { strict as assert } from 'node:assert';
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FILES, FLEET, MYR_UNITS, lineOf } from '../protocol/fixtures';

const BIN = resolve(__dirname, '../../bin/fabled-star-language-server.js');
const SERVER = resolve(__dirname, '../../dist/server.js');

function nvimVersion(): string | undefined {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : undefined;
}

/** A Lua string literal (JSON's escaping is a subset of Lua's for these paths). */
const lua = (s: string) => JSON.stringify(s);

function initLua(root: string, out: string, fleet: string): string {
  return `
local out = ${lua(out)}
local result = { diagnostics = {}, errors = {} }
local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(${lua(fleet)}))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'fabled-star',
    cmd = { ${lua(process.execPath)}, ${lua(BIN)}, '--stdio' },
    root_dir = ${lua(root)},
    workspace_folders = { { uri = vim.uri_from_fname(${lua(root)}), name = 'ws' } },
  })
  vim.lsp.buf_attach_client(buf, client_id)

  -- Poll Neovim's own diagnostic store until the fleet's three problems are there.
  local got = vim.wait(20000, function()
    local ds = vim.diagnostic.get(buf)
    local n = 0
    for _, d in ipairs(ds) do
      if d.message:find('Consumed card', 1, true) then n = n + 1 end
    end
    return n > 0 and #ds >= 3
  end, 50)
  result.waited = got
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, message = d.message, severity = d.severity, source = d.source })
  end

  local function at(needle, delta)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local s = line:find(needle, 1, true)
      if s then return { line = i - 1, character = s - 1 + delta } end
    end
  end
  local doc = { uri = vim.uri_from_bufnr(buf) }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = doc, position = at('points: 1000', 9) }, 10000)
  for _, r in pairs(hover or {}) do
    if r.result and r.result.contents then result.hover = r.result.contents.value end
    if r.err then table.insert(result.errors, vim.inspect(r.err)) end
  end
  local def = vim.lsp.buf_request_sync(buf, 'textDocument/definition', { textDocument = doc, position = at('Lumen Cruiser', 2) }, 10000)
  for _, r in pairs(def or {}) do
    if r.result and r.result[1] then result.definition = { uri = r.result[1].uri, line = r.result[1].range.start.line } end
  end
  local comp = vim.lsp.buf_request_sync(buf, 'textDocument/completion', { textDocument = doc, position = at('unit: Maw Frigate', 6) }, 10000)
  result.completion = {}
  for _, r in pairs(comp or {}) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, it in ipairs(items) do table.insert(result.completion, it.label) end
  end
end)
if not ok then table.insert(result.errors, tostring(err)) end
finish()
`;
}

describe('the server in headless Neovim (its own LSP client)', function () {
  this.timeout(90000);
  const version = nvimVersion();

  it('shows diagnostics on the right lines, hovers with rule text and jumps to a card in another file', async function () {
    assert.ok(version, 'Neovim is not installed: apt-get install -y neovim (see TESTING.md)');
    assert.ok(existsSync(SERVER), `${SERVER} is missing: run "node esbuild.mjs" first`);
    const root = mkdtempSync(join(tmpdir(), 'fabled-nvim-'));
    try {
      for (const [rel, text] of Object.entries(FILES)) {
        mkdirSync(dirname(join(root, rel)), { recursive: true });
        writeFileSync(join(root, rel), text);
      }
      const out = join(root, 'result.json');
      const init = join(root, 'init.lua');
      const fleet = join(root, 'fleets/vanguard.fleet.yaml');
      writeFileSync(init, initLua(root, out, fleet));
      const child = spawn('nvim', ['--headless', '--clean', '-n', '-i', 'NONE', '-u', init], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((res) => child.on('exit', res));
      assert.ok(existsSync(out), `Neovim wrote no result (exit ${code}): ${stderr}`);
      const r = JSON.parse(readFileSync(out, 'utf8')) as {
        waited: boolean;
        diagnostics: { lnum: number; message: string; source: string }[];
        hover?: string;
        definition?: { uri: string; line: number };
        completion: string[];
        errors: string[];
      };
      assert.deepEqual(r.errors, []);
      assert.equal(r.waited, true, `diagnostics never arrived: ${JSON.stringify(r.diagnostics)}`);
      const lines = r.diagnostics.map((d) => `${d.lnum}:${d.message.slice(0, 30)}`).sort();
      assert.deepEqual(
        r.diagnostics.map((d) => d.lnum).sort((a, b) => a - b),
        [lineOf(FLEET, 'points'), lineOf(FLEET, 'Lumen Destroyr'), lineOf(FLEET, 'Maw Frigate')],
        lines.join('\n'),
      );
      assert.ok(r.diagnostics.every((d) => d.source === 'fabled-star'));
      assert.match(r.diagnostics.find((d) => d.lnum === lineOf(FLEET, 'Lumen Destroyr'))!.message, /did you mean "Lumen Destroyer"/);
      assert.match(r.hover ?? '', /650 \/ 1000 pts[\s\S]*§17 Deployment & Battlefield Setup/);
      assert.deepEqual(r.definition, { uri: `file://${join(root, 'cards/myr.unit.yaml')}`, line: lineOf(MYR_UNITS, 'name: Lumen Cruiser') });
      assert.ok(r.completion.includes('Lumen Destroyer') && !r.completion.includes('Maw Frigate'), r.completion.join(', '));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

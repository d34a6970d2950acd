/**
 * The extension through VS Code's own API, inside the extension host: activation, commands,
 * diagnostics, hovers, code lenses, the engagement panel, a restart. The workspace is a copy of
 * examples/; expected diagnostics come from the CLI run on the same folder, rule text from the
 * rules pack, so nothing here is a hand-copied literal that could drift.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { WEAPON_TYPE_SECTION } from '../../../server/src/core/rules/data';
import { section, sectionTitle } from '../../../server/src/core/rules/text';

const EXTENSION_ID = 'fabled-star.fabled-star-tools';

async function poll<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the tests need the examples workspace open');
  return f.uri;
}

function fileUri(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(folder(), ...relative.split('/'));
}

interface CliDiagnostic {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** The CLI's findings for the workspace (the extension's own bin, run with the extension host's Node). */
function cliDiagnostics(): CliDiagnostic[] {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const cli = join(ext.extensionPath, 'bin', 'fabled-star.js');
  let out: string;
  try {
    out = execFileSync(process.execPath, [cli, 'check', '--format', 'json', '.'], {
      cwd: folder().fsPath,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
  } catch (e) {
    // Exit status 1 means "errors found", with the JSON on stdout; anything else is a real failure.
    const err = e as { status?: number; stdout?: string; stderr?: string };
    if (err.status !== 1 || !err.stdout) throw new Error(`The CLI failed (${err.status}): ${err.stderr ?? String(e)}`);
    out = err.stdout;
  }
  return (JSON.parse(out) as { diagnostics: CliDiagnostic[] }).diagnostics;
}

async function open(relative: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fileUri(relative));
  return vscode.window.showTextDocument(doc);
}

function positionOf(doc: vscode.TextDocument, re: RegExp): vscode.Position {
  const m = re.exec(doc.getText());
  assert.ok(m, `${re} not found in ${doc.uri.path}`);
  return doc.positionAt(m.index + (m[1] !== undefined ? m[0].indexOf(m[1]) : 0));
}

const BROKEN = 'showcase/homebrew-mistakes.unit.yaml';

describe('Fabled Star Tools in the extension host', () => {
  it('is installed and activates when a unit card file opens', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    const editor = await open('myr-valari/myr-valari.unit.yaml');
    assert.equal(editor.document.languageId, 'fabled-unit');
    await poll('activation', () => ext.isActive);
  });

  it('gives each file kind its language', async () => {
    for (const [file, id] of [
      ['myr-valari/myr-valari.unit.yaml', 'fabled-unit'],
      ['myr-valari/myr-valari.faction.yaml', 'fabled-faction'],
      ['fleets/standard-1000.fleet.yaml', 'fabled-fleet'],
    ] as const) {
      const doc = await vscode.workspace.openTextDocument(fileUri(file));
      assert.equal(doc.languageId, id, file);
    }
  });

  it('registers every command it contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (ext.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of contributed) assert.ok(all.has(c), `${c} is not registered`);
  });

  it('reports the problems the CLI reports, at the same places', async () => {
    const expected = cliDiagnostics().filter((d) => d.file === BROKEN);
    assert.ok(expected.length > 0);
    const uri = fileUri(BROKEN);
    await open(BROKEN);
    const got = await poll(`${expected.length} diagnostics on ${BROKEN}`, () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length >= expected.length ? d : undefined;
    });
    const key = (line: number, column: number, code: string) => `${line}:${column} ${code}`;
    const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
    assert.deepEqual(
      got.map((d) => key(d.range.start.line + 1, d.range.start.character + 1, codeOf(d))).sort(),
      expected.map((d) => key(d.line, d.column, d.code)).sort(),
    );
  });

  it("hovers a weapon's type with the rulebook section on weapons, and the weapons key with the slots by class", async () => {
    const editor = await open('myr-valari/myr-valari.unit.yaml');
    const hoverText = async (re: RegExp) => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, positionOf(editor.document, re));
      return squash(
        hovers
          .flatMap((h) => h.contents)
          .map((c) => (typeof c === 'string' ? c : c.value))
          .join('\n')
          .replace(/\\/g, ''),
      );
    };
    const text = await hoverText(/^\s+type: (Piercing)/m);
    assert.ok(text.includes(sectionTitle(WEAPON_TYPE_SECTION)!), text);
    const firstWords = squash(section(WEAPON_TYPE_SECTION)!.rule).split(' ').slice(0, 6).join(' ');
    assert.ok(text.includes(firstWords), `hover lacks "${firstWords}": ${text}`);
    // The key's hover is about how many weapon systems the class has: section 3's table.
    const key = await hoverText(/^\s+(weapons):/m);
    assert.ok(key.includes('Weapon Systems by class'), key);
  });

  it('offers code lenses that run Simulate Engagement on cards', async () => {
    const editor = await open('myr-valari/myr-valari.unit.yaml');
    const lenses = await poll('code lenses', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri, 100);
      return l.length ? l : undefined;
    });
    assert.ok(lenses.some((l) => l.command?.command === 'fabledStar.simulateEngagement'));
  });

  it('opens an engagement panel from the code lens arguments', async () => {
    await vscode.commands.executeCommand('fabledStar.simulateEngagement', {
      attacker: { name: 'Lumen Destroyer', uri: fileUri('myr-valari/myr-valari.unit.yaml').toString() },
      defender: { name: 'Consumed Maw Frigate' },
    });
    const tab = await poll('the engagement tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Engagement: Lumen Destroyer vs Consumed Maw Frigate'),
    );
    assert.ok((tab.input as vscode.TabInputWebview).viewType.endsWith('fabledStar.engagement'));
  });

  it('a command run while the server restarts waits for it, rather than saying it is not running', async () => {
    await vscode.env.clipboard.writeText('');
    // The restart is under way (the old server is stopping) when the command asks for the roster.
    const restarted = vscode.commands.executeCommand('fabledStar.restartServer');
    await vscode.commands.executeCommand('fabledStar.copyRosterText', fileUri('fleets/standard-1000.fleet.yaml'));
    await restarted;
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, / · rules /, `the roster was copied: ${JSON.stringify(copied)}`);
  });

  it('restarts the language server on request and validates again', async () => {
    await vscode.commands.executeCommand('fabledStar.restartServer');
    const uri = fileUri(BROKEN);
    await open(BROKEN);
    await poll('diagnostics after the restart', () => vscode.languages.getDiagnostics(uri).length > 0);
  });
});

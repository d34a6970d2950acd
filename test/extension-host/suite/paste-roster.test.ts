/**
 * "Paste Roster as Fleet" through VS Code's own API: a list as a player posts it, on the clipboard
 * or given to the command, opens as a new untitled fleet list that the language server checks like
 * any other, with the line that names no card kept as a comment.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

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

const POST = [
  'Veil Patrol - 500 pts',
  'Myr-Valari',
  '',
  '- Lumen Cruiser [190] + Veilwing Fighter Wing',
  '- Prism Frigate Squadron (110)',
  '- Shardlight Escort (80)',
  '- Veilwing Fighter Wing (60)',
  '- Lumen Dxxtrxyxr',
].join('\r\n');

describe('Paste Roster as Fleet', function () {
  this.timeout(90_000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  async function checkFleet(doc: vscode.TextDocument | undefined): Promise<void> {
    assert.ok(doc, 'the command returns the new document');
    assert.equal(doc.languageId, 'fabled-fleet');
    assert.equal(doc.isUntitled, true);
    // Named after the fleet (the tab, and the file Save offers), not after its first line, a comment.
    assert.match(doc.uri.path, /\/veil-patrol(-\d+)?\.fleet\.yaml$/, doc.uri.toString());
    const text = doc.getText();
    assert.match(text, /^name: Veil Patrol$/m);
    assert.match(text, /^faction: Myr-Valari$/m);
    assert.match(text, /^points: 500$/m);
    assert.match(text, /^ {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing$/m);
    // Close to no card clearly (a typo would be read as its card): kept as a comment naming the cards it may mean.
    assert.match(text, /^# line 8: - Lumen Dxxtrxyxr \(no card named "Lumen Dxxtrxyxr"; closest cards?: "Lumen Destroyer".*\)$/m);
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    // The server checks it like any fleet list: exactly on the limit, no error.
    const diags = await poll('the new fleet to be checked', async () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      const lens = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return lens && lens.length > 0 ? d : undefined;
    });
    assert.deepEqual(
      diags.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => d.message),
      [],
    );
  }

  it('reads the text it is given into a new untitled fleet list', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('fabledStar.pasteRosterAsFleet', POST);
    await checkFleet(doc);
  });

  it('opens nothing for text that names no unit (chat), and says what it reads', async () => {
    const before = vscode.workspace.textDocuments.length;
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>(
      'fabledStar.pasteRosterAsFleet',
      'hey guys, what do you think of my list? thinking of going heavy on cruisers',
    );
    assert.equal(doc, undefined);
    assert.equal(vscode.workspace.textDocuments.length, before, 'no new document');
  });

  it('reads the clipboard', async () => {
    await vscode.env.clipboard.writeText(POST);
    assert.equal(await vscode.env.clipboard.readText(), POST, 'the clipboard holds the post');
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('fabledStar.pasteRosterAsFleet');
    await checkFleet(doc);
    // The second paste of the same list is a new document beside the first, not the first again.
    const first = vscode.workspace.textDocuments.filter((d) => d.isUntitled && /veil-patrol/.test(d.uri.path));
    assert.equal(new Set(first.map((d) => d.uri.toString())).size, first.length);
    assert.ok(first.length >= 2, first.map((d) => d.uri.toString()).join(' '));
  });
});

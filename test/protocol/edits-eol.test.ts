/**
 * Edits over stdio in files as people write them (#24): a fleet with lone-CR line endings, a CRLF
 * card, comments between and after entries. The roster's edits and the quick fixes come back as
 * LSP ranges; applied as an editor applies them (lines broken at CR, LF and CRLF, as LSP says),
 * they change exactly their target and keep the file's line ending.
 */
import { strict as assert } from 'node:assert';
import { InsertTextMode, type CodeAction, type CompletionList, type Diagnostic, type Position, type TextEdit } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { FILES } from './fixtures';
import type { RosterData, RosterEditResult } from '../../protocol';

/** Line starts with every LSP line break (CR, LF, CRLF). */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\r' || text[i] === '\n') out.push(i + 1);
  }
  return out;
}

const offsetAt = (text: string, p: Position) => lineStarts(text)[p.line]! + p.character;

function positionAt(text: string, off: number): Position {
  const starts = lineStarts(text);
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1]! <= off) line++;
  return { line, character: off - starts[line]! };
}

function apply(text: string, edits: TextEdit[]): string {
  return [...edits]
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start)
    .reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

describe('edits over stdio keep line endings and comments', function () {
  this.timeout(60000);
  let c: Client;
  before(async () => {
    c = await startServer({ files: FILES });
  });
  after(async () => c?.stop());

  async function replaceAll(uri: string, text: string): Promise<void> {
    const old = c.texts.get(uri)!;
    await c.change(uri, [{ range: { start: positionAt(old, 0), end: positionAt(old, old.length) }, text }], text);
  }

  async function rosterEdit(uri: string, params: Record<string, unknown>): Promise<string> {
    const r = await c.request<RosterEditResult>('fabledStar/rosterEdit', { uri, version: c.versions.get(uri), ...params });
    assert.ok(r && 'edit' in r, JSON.stringify(r));
    const text = apply(c.texts.get(uri)!, [r.edit]);
    await replaceAll(uri, text);
    return text;
  }

  it('a lone-CR fleet: Add, Embark and Remove write CR and keep the comments after an entry', async () => {
    const cr = (s: string) => s.replace(/\n/g, '\r');
    const start = cr(
      'name: CR Fleet\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    embark:\n      - Veilwing Fighter Wing\n  # the escorts\n  - unit: Shardlight Escort\n',
    );
    const uri = await c.open('fleets/cr.fleet.yaml', start);
    await c.poll('the CR fleet’s roster', async () => {
      const r = await c.request<RosterData | null>('fabledStar/roster', { uri });
      return r && r.entries.length === 2 && r.entries[1]!.class === 'Escort' && r;
    });
    let text = await rosterEdit(uri, { action: 'add', card: 'Lumen Destroyer' });
    assert.equal(text, start + cr('  - unit: Lumen Destroyer\n'));
    text = await rosterEdit(uri, { action: 'embark', entry: 2, card: 'Veilwing Fighter Wing', unit: 'Lumen Destroyer' });
    assert.equal(text, start + cr('  - unit: Lumen Destroyer\n    embark:\n      - Veilwing Fighter Wing\n'));
    text = await rosterEdit(uri, { action: 'remove', entry: 0, unit: 'Lumen Cruiser' });
    assert.equal(
      text,
      cr(
        'name: CR Fleet\nfaction: Myr-Valari\npoints: 1000\nunits:\n  # the escorts\n  - unit: Shardlight Escort\n  - unit: Lumen Destroyer\n    embark:\n      - Veilwing Fighter Wing\n',
      ),
    );
    const r = await c.request<RosterData>('fabledStar/roster', { uri });
    assert.deepEqual(
      r.entries.map((e) => [e.unit, e.embarked.map((x) => x.name)]),
      [
        ['Shardlight Escort', []],
        ['Lumen Destroyer', ['Veilwing Fighter Wing']],
      ],
    );
  });

  it('the FS-FLEET-OVER quick fix "Remove …" takes the entry’s own lines and keeps the comments after it', async () => {
    const text =
      'name: Over\nfaction: Myr-Valari\npoints: 300\nunits:\n  - unit: Lumen Cruiser\n    embark:\n      - Veilwing Fighter Wing\n  # screen below\n\n# column 0\n  - unit: Shardlight Escort\n'.replace(
        /\n/g,
        '\r\n',
      );
    const uri = await c.open('fleets/over.fleet.yaml', text);
    const ds = await c.diagnosticsWhere(uri, 'over the limit', (d) => d.some((x) => x.code === 'FS-FLEET-OVER'));
    const over = ds.find((d: Diagnostic) => d.code === 'FS-FLEET-OVER')!;
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: over.range,
      context: { diagnostics: [over], triggerKind: 2 },
    });
    const remove = actions.find((a) => /^Remove Lumen Cruiser/.test(a.title));
    assert.ok(remove, actions.map((a) => a.title).join(' | '));
    const fixed = apply(text, remove.edit!.changes![uri]!);
    assert.equal(
      fixed,
      'name: Over\nfaction: Myr-Valari\npoints: 300\nunits:\n  # screen below\n\n# column 0\n  - unit: Shardlight Escort\n'.replace(/\n/g, '\r\n'),
    );
  });

  it('a lone-CR card: completion’s templates come with CR and as they are (no indentation added again)', async () => {
    const text = 'faction: Myr-Valari\runits:\r  - ';
    const uri = await c.open('cards/cr.unit.yaml', text);
    const list = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: positionAt(text, text.length) });
    const multi = list.items.filter((i) => i.textEdit && /[\r\n]/.test(i.textEdit.newText));
    assert.ok(multi.length > 0, list.items.map((i) => i.label).join(', '));
    for (const i of multi) {
      assert.ok(!i.textEdit!.newText.includes('\n'), `${i.label}: ${JSON.stringify(i.textEdit!.newText)}`);
      assert.equal(i.insertTextMode, InsertTextMode.asIs, i.label);
    }
  });

  it('a CRLF card: "Add the missing stat" writes CRLF', async () => {
    const text = [
      'faction: Myr-Valari',
      'units:',
      '  - name: Crlf Ship',
      '    class: Destroyer',
      '    points: 145',
      '    stats:',
      '      M: 9/6',
      '      BS: 5+',
      '      D: 7+',
      '      SH: 4',
      '      AC: 6+',
      '      HP: 5',
      '      LD: 6/3',
      '      CR: 7/2 # crew',
      '    weapons:',
      '      - Gun — Energy, 12", 2, 3',
      '',
    ].join('\r\n');
    const uri = await c.open('cards/crlf.unit.yaml', text);
    const ds = await c.diagnosticsWhere(uri, 'a missing stat', (d) => d.some((x) => x.code === 'FS-STAT-MISSING'));
    const missing = ds.find((d) => d.code === 'FS-STAT-MISSING')!;
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: missing.range,
      context: { diagnostics: [missing], triggerKind: 2 },
    });
    const add = actions.find((a) => /^Add the missing stat T/.test(a.title));
    assert.ok(add, actions.map((a) => a.title).join(' | '));
    const fixed = apply(text, add.edit!.changes![uri]!);
    assert.ok(!/(?<!\r)\n|\r(?!\n)/.test(fixed), JSON.stringify(fixed));
    assert.match(fixed, /\r\n {6}CR: 7\/2 # crew\r\n {6}T: —\r\n {4}weapons:/);
  });
});

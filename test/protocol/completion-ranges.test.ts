/**
 * Completion edits by the LSP's rule: a completion item's `textEdit` range "must be a single line
 * range and it must contain the position at which completion has been requested". The bundled
 * server is asked over stdio at every line and column of every example file (the places users put
 * the cursor: in indentation, after a list's "- ", in a comment, past the end of a line), and every
 * item's range is checked. Inside a comment nothing is offered.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CompletionItem, CompletionList, InsertReplaceEdit, Range, TextEdit } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { EXAMPLES } from '../helpers';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (/\.(unit|faction|fleet|collection)\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

function itemsOf(r: CompletionList | CompletionItem[] | null): CompletionItem[] {
  return Array.isArray(r) ? r : (r?.items ?? []);
}

function rangesOf(item: CompletionItem): Range[] {
  const e = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  if (!e) return [];
  return 'range' in e ? [e.range] : [e.insert, e.replace];
}

/** Whether the character at `col` of `line` is inside a YAML comment (a `#` at the line's start or after a blank, outside quotes). */
function inComment(line: string, col: number): boolean {
  let q: string | undefined;
  for (let i = 0; i < col && i < line.length; i++) {
    const ch = line[i]!;
    if (q) {
      if (ch === q) q = undefined;
    } else if (ch === '"' || ch === "'") {
      if (i === 0 || /[\s[{,:-]/.test(line[i - 1]!)) q = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return true;
  }
  return false;
}

describe('completion edit ranges over every position of the example files', function () {
  this.timeout(600000);
  let c: Client;
  const files = filesUnder(EXAMPLES);
  const texts: Record<string, string> = {};
  for (const f of files) texts[relative(EXAMPLES, f)] = readFileSync(f, 'utf8');

  before(async () => {
    c = await startServer({ files: texts });
  });
  after(async () => c?.stop());

  async function complete(uri: string, line: number, character: number): Promise<CompletionItem[]> {
    return itemsOf(
      await c.request<CompletionList | CompletionItem[] | null>('textDocument/completion', { textDocument: { uri }, position: { line, character } }),
    );
  }

  it('the reported case: nothing in the indentation of a key of consumed.faction.yaml; a blank line indented there gets the keys at the cursor', async () => {
    const rel = 'consumed/consumed.faction.yaml';
    const text = texts[rel]!;
    const lines = text.split('\n');
    assert.match(lines[8]!, /^  name: The Hunger Reaches/);
    const uri = await c.open(rel, text);
    assert.deepEqual(
      (await complete(uri, 8, 0)).map((i) => `${i.label} ${JSON.stringify(rangesOf(i))}`),
      [],
    );
    await c.close(uri);
    // The same place with the line still to be written: the factionAbility's "name" at 8:2.
    const blank = [...lines.slice(0, 8), '  ', ...lines.slice(9)].join('\n');
    const uri2 = await c.open('consumed/blank.faction.yaml', blank);
    const items = await complete(uri2, 8, 2);
    assert.ok(
      items.some((i) => i.label === 'name'),
      items.map((i) => i.label).join(', '),
    );
    for (const item of items)
      for (const r of rangesOf(item)) assert.deepEqual(r, { start: { line: 8, character: 2 }, end: { line: 8, character: 2 } }, item.label);
    await c.close(uri2);
  });

  it('no completion inside a comment', async () => {
    const rel = 'consumed/consumed.faction.yaml';
    const text = texts[rel]!;
    const uri = await c.open(rel, text);
    const lines = text.split('\n');
    const first = lines.findIndex((l) => l.trimStart().startsWith('#'));
    assert.ok(first >= 0, 'the file has a whole-line comment');
    assert.deepEqual(
      (await complete(uri, first, lines[first]!.length)).map((i) => i.label),
      [],
    );
    await c.close(uri);
  });

  it('every item at every line and column: a single-line range on the request line that contains the position', async () => {
    const bad: string[] = [];
    let requests = 0;
    let items = 0;
    for (const [rel, text] of Object.entries(texts)) {
      const uri = await c.open(rel, text);
      const lines = text.split('\n');
      for (let line = 0; line < lines.length; line++) {
        const t = lines[line]!.replace(/\r$/, '');
        for (let character = 0; character <= t.length; character++) {
          const got = await complete(uri, line, character);
          requests++;
          items += got.length;
          if (got.length && inComment(t, character)) bad.push(`${rel} ${line}:${character} in a comment: ${got.length} items (${got[0]!.label})`);
          for (const item of got)
            for (const r of rangesOf(item)) {
              if (r.start.line !== line || r.end.line !== line || r.start.character > character || r.end.character < character)
                bad.push(`${rel} ${line}:${character} ${item.label}: ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`);
            }
        }
      }
      await c.close(uri);
    }
    assert.ok(requests > 10000, `asked at ${requests} positions`);
    assert.ok(items > 10000, `got ${items} items`);
    assert.deepEqual(bad.slice(0, 40), [], `${bad.length} violations`);
  });
});

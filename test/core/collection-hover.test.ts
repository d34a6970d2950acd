/**
 * Hovering over a collection entry: the card it names, how many are owned, and each fleet that
 * fields it with how many more it needs (the same shortfall `FS-COLLECTION-SHORT` reports); a
 * collection that is not the one read says so, and a name that is no card says that.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileUri } from '../../server/src/cli/io';
import { Workspace } from '../../server/src/core/workspace';
import { hover } from '../../server/src/core/features/hover';
import { resolveSettings } from '../../protocol';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const FLEET = path.join(EXAMPLES, 'fleets', 'standard-1000-myr-valari.fleet.yaml');
const SHELF = `owned:
  - unit: Lumen Cruiser
    count: 0
  - unit: Veilwing Fighter Wing
    count: 2
  - Lumen Destroyer
  - Nothing Of The Sort
`;

function workspace(): Workspace {
  const ws = new Workspace();
  for (const f of ['myr-valari/myr-valari.unit.yaml', 'myr-valari/myr-valari.faction.yaml'])
    ws.set(fileUri(path.join(EXAMPLES, f)), fs.readFileSync(path.join(EXAMPLES, f), 'utf8'));
  ws.set(fileUri(FLEET), fs.readFileSync(FLEET, 'utf8'));
  return ws;
}

function hoverAt(ws: Workspace, uri: string, text: string, needle: string): string | undefined {
  const doc = ws.get(uri)!;
  return hover(doc, ws, text.indexOf(needle) + 2, resolveSettings({}))?.markdown;
}

describe('collection hover', () => {
  it('names the card, what is owned, and what each fleet fielding it needs', () => {
    const ws = workspace();
    const uri = 'file:///shelf/a.collection.yaml';
    ws.set(uri, SHELF);
    const cruiser = hoverAt(ws, uri, SHELF, 'Lumen Cruiser')!;
    assert.match(cruiser, /Lumen Cruiser/);
    assert.match(cruiser, /You own none\./);
    assert.match(cruiser, /Lantern Watch: fields 1, \*\*1 to buy\*\*/);
    // Embarked copies count: the fleet carries one Veilwing, two are owned, nothing to buy.
    const wing = hoverAt(ws, uri, SHELF, 'Veilwing')!;
    assert.match(wing, /You own 2\./);
    assert.match(wing, /Lantern Watch: fields 1$/m);
    // On the count too.
    assert.match(hoverAt(ws, uri, SHELF, 'count: 2')!, /You own 2\./);
    assert.match(hoverAt(ws, uri, SHELF, 'Nothing Of')!, /No card of that name/);
  });

  it('says a second collection is not read', () => {
    const ws = workspace();
    ws.set('file:///shelf/a.collection.yaml', SHELF);
    const second = 'file:///shelf/b.collection.yaml';
    ws.set(second, SHELF);
    assert.match(hoverAt(ws, second, SHELF, 'Lumen Cruiser')!, /not read/);
  });

  it('never takes HTML from the file as markup', () => {
    const ws = workspace();
    const text = 'owned:\n  - "<img src=x onerror=alert(1)>"\n';
    const uri = 'file:///shelf/a.collection.yaml';
    ws.set(uri, text);
    const md = hoverAt(ws, uri, text, '<img')!;
    // Escaped as every hover escapes names (md): the markdown shows the text, never an element.
    assert.ok(!/(^|[^\\])<img/.test(md), md);
  });
});

/**
 * One Command Board per faction (section 21) across the workspace: both boards say so, each links
 * the other, an edit to one re-validates the other, and removing one clears both. And a board's CP
 * per round is its doctrine's, whatever its sources add up to.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument, cpPerRound } from '../../server/src/core/check/index';
import { dependents } from '../../server/src/core/features/workspaceQueries';
import type { FactionDocument } from '../../server/src/core/model/types';

const A = 'file:///boards/a.faction.yaml';
const B = 'file:///boards/b.faction.yaml';
const C = 'file:///boards/c.faction.yaml';

function board(faction: string, doctrine: string, extra = ''): string {
  const cas = ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => `  - { name: ${n}, cost: 1, timing: Any, effect: ${n}. }`).join('\n');
  return `faction: ${faction}\ndoctrine: ${doctrine}\n${extra}factionAbility: { name: F, text: T. }\ncommandAbilities:\n${cas}\n`;
}

const codes = (ws: Workspace, uri: string) => checkDocument(ws.get(uri)!, ws).map((p) => p.code);

describe('one Command Board per faction', () => {
  it('two boards of one faction are both reported, each linked to the other', () => {
    const ws = new Workspace();
    ws.set(A, board('Twin Court', 'Standard'));
    ws.set(B, board('twin court', 'Elite'));
    ws.set(C, board('Lone Court', 'Light'));
    for (const [uri, other] of [
      [A, B],
      [B, A],
    ] as const) {
      const p = checkDocument(ws.get(uri)!, ws).find((x) => x.code === 'FS-DUPLICATE-BOARD');
      assert.ok(p, `${uri} is not reported`);
      assert.equal(ws.get(uri)!.text.slice(p.span.start, p.span.end).toLowerCase(), 'twin court');
      assert.deepEqual(
        p.related?.map((r) => r.uri),
        [other],
      );
    }
    assert.deepEqual(codes(ws, C), []);
  });

  it('an edit to one board re-validates the other boards of its faction (before and after)', () => {
    const ws = new Workspace();
    ws.set(A, board('Twin Court', 'Standard'));
    ws.set(B, board('Twin Court', 'Elite'));
    ws.set(C, board('Lone Court', 'Light'));
    const before = ws.get(B);
    const after = ws.set(B, board('Lone Court', 'Elite'));
    const deps = dependents(ws, B, before, after);
    assert.ok(deps.includes(A), 'the board B left');
    assert.ok(deps.includes(C), 'the board B joined');
    assert.deepEqual(codes(ws, A), []);
    assert.ok(codes(ws, C).includes('FS-DUPLICATE-BOARD'));
  });

  it('removing the second board clears the first', () => {
    const ws = new Workspace();
    ws.set(A, board('Twin Court', 'Standard'));
    ws.set(B, board('Twin Court', 'Elite'));
    assert.ok(codes(ws, A).includes('FS-DUPLICATE-BOARD'));
    ws.delete(B);
    assert.deepEqual(codes(ws, A), []);
  });

  it("a board generates its doctrine's CP, not what its sources add up to", () => {
    const ws = new Workspace();
    ws.set(A, board('Split', 'Elite', 'cpSources:\n  - { name: Commander Burst, cp: 2 }\n  - { name: First Officer Burst, cp: 1 }\n'));
    assert.equal(cpPerRound(ws.get(A) as FactionDocument), 4);
    ws.set(B, board('Other', 'doctrine-less', 'cp: 3\n'));
    assert.equal(cpPerRound(ws.get(B) as FactionDocument), 3);
  });
});

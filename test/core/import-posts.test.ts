/**
 * Lists as players post them (core/roster/import/), one file each in test/core/import-posts/:
 * `NAME.txt` the post as pasted (forum, Reddit, Discord, BattleScribe and New Recruit text, tables,
 * CRLF, tabs, no-break spaces, smart quotes, emoji, typos, plurals) and `NAME.json` what a player
 * means by it: `units` as `[count, card, [embarked...]]`, the 1-based `problems` lines that must be
 * reported (the rest must be read), the lines whose name was read as the closest card (`guesses`: a
 * typo, a plural, a name cut short), and the `name`, `faction` and `points` when the post says them.
 * `"cards": "kith"` reads the post against kith.unit.yaml (names with apostrophes, hyphens, a
 * macron, a comma and a digit) instead of the example cards. A post the player wrote correctly
 * imports to a fleet the checker passes without an error. Add a post: drop in the two files.
 */
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import { exampleFallback } from '../../server/src/core/examples/index';
import { importRoster } from '../../server/src/core/roster/import';
import { diagnose } from '../../server/src/core/service';
import type { FleetDocument } from '../../server/src/core/model/types';

const DIR = path.join(__dirname, 'import-posts');

interface Want {
  cards?: 'kith';
  name?: string;
  faction?: string;
  points?: number;
  units: [number, string, string[]?][];
  problems?: number[];
  guesses?: number[];
}

function workspace(cards: Want['cards']): Workspace {
  if (cards !== 'kith') return exampleFallback(new Workspace());
  const ws = new Workspace();
  ws.set('file:///ws/kith.unit.yaml', fs.readFileSync(path.join(DIR, 'kith.unit.yaml'), 'utf8'));
  return ws;
}

describe('import: posts of fleet lists as players write them (test/core/import-posts)', () => {
  const posts = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  it('has the posts', () => assert.ok(posts.length >= 25, `${posts.length} posts`));
  for (const file of posts) {
    it(file, () => {
      const want = JSON.parse(fs.readFileSync(path.join(DIR, file.replace(/\.txt$/, '.json')), 'utf8')) as Want;
      const ws = workspace(want.cards);
      const r = importRoster(fs.readFileSync(path.join(DIR, file), 'utf8'), ws);
      const why = r.problems.map((p) => `${p.line}: ${p.text} (${p.why})`).join('\n');
      assert.deepEqual(
        r.entries.map((e) => [e.count, e.unit, e.embark]),
        want.units.map(([count, unit, embark]) => [count, unit, embark ?? []]),
        why,
      );
      assert.deepEqual(
        r.problems.map((p) => p.line),
        want.problems ?? [],
        why,
      );
      assert.deepEqual(
        r.guesses.map((g) => g.line),
        want.guesses ?? [],
        r.guesses.map((g) => `${g.line}: ${g.written} -> ${g.unit}`).join('\n'),
      );
      for (const k of ['name', 'faction', 'points'] as const) if (want[k] !== undefined) assert.equal(r[k], want[k], k);
      if (!want.problems?.length && !want.guesses?.length && want.cards !== 'kith') {
        const doc = ws.set('file:///ws/imported.fleet.yaml', r.fleet) as FleetDocument;
        const errors = diagnose(doc, ws).problems.filter((p) => p.severity === 'error');
        assert.deepEqual(
          errors.map((p) => `${p.code}: ${p.message}`),
          [],
          r.fleet,
        );
      }
    });
  }
});

/**
 * `import` reads a unit line into the fleet or reports it (core/roster/import/): generated posts
 * mixing well-written unit lines, noise (headings, totals, chat), card names cut short on their own
 * line and lists of a hundred units or more on one line (longer than a line is read at once). Every
 * unit line ends as an entry of its line (its units all there) or as a problem of its line; no noise
 * line becomes an entry; a text longer than the lines read says so.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace } from '../../server/src/core/workspace';
import { exampleFallback } from '../../server/src/core/examples/index';
import { importRoster, IMPORT_LIMITS } from '../../server/src/core/roster/import';
import { buildRoster } from '../../server/src/core/roster/model';
import { renderRoster } from '../../server/src/core/roster/render';
import type { FleetDocument } from '../../server/src/core/model/types';
import { propertySettings } from './property-settings';

const ws = exampleFallback(new Workspace());
const CARDS = ws.factions().flatMap((f) => ws.cardsOf(f).map((r) => r.name));
/** Cards of three words or more: their first words are a name cut short. */
const LONG_NAMES = CARDS.filter((n) => n.split(' ').length >= 3);
const NOISE = ['', '## Escorts', 'Total: 1000 pts', 'Thoughts welcome!', '---', 'Good luck everyone.', 'Capitals:'];

type Line =
  | { kind: 'good'; text: string; card: string; count: number }
  | { kind: 'noise'; text: string }
  | { kind: 'cut'; text: string; card: string }
  | { kind: 'long'; text: string; units: number };

const card = fc.constantFrom(...CARDS);
const good: fc.Arbitrary<Line> = fc.tuple(card, fc.integer({ min: 1, max: 4 }), fc.constantFrom('nx', 'n x', 'dash', 'pts', 'xn')).map(([c, n, form]) => {
  const text = { nx: `${n}x ${c}`, 'n x': `${n} x ${c}`, dash: `- ${n}x ${c}`, pts: `${n}x ${c} (${n * 100})`, xn: `${c} x${n}` }[form];
  return { kind: 'good', text, card: c, count: n };
});
const noise: fc.Arbitrary<Line> = fc.constantFrom(...NOISE).map((text) => ({ kind: 'noise', text }));
const cut: fc.Arbitrary<Line> = fc.tuple(fc.constantFrom(...LONG_NAMES), fc.nat()).map(([c, k]) => {
  const words = c.split(' ');
  const n = 2 + (k % (words.length - 2));
  return { kind: 'cut', text: words.slice(0, n).join(' '), card: c };
});
const long: fc.Arbitrary<Line> = fc
  .tuple(fc.array(fc.tuple(card, fc.integer({ min: 1, max: 3 })), { minLength: 100, maxLength: 160 }), fc.boolean())
  .map(([units, heading]) => {
    const text = `${heading ? 'My list: ' : ''}${units.map(([c, n]) => (n === 1 ? c : `${n}x ${c}`)).join(', ')}`;
    return { kind: 'long', text, units: units.reduce((t, [, n]) => t + n, 0) };
  });

describe('import: every unit line is in the fleet or reported (generated posts)', () => {
  it('good lines, noise, cut names and long one-line lists', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: noise, weight: 2 }, cut, long), { minLength: 1, maxLength: 14 }), (post) => {
        const r = importRoster(post.map((l) => l.text).join('\n'), ws);
        const why = `${post.map((l, i) => `${i + 1} ${l.kind}: ${l.text.slice(0, 80)}`).join('\n')}\n--\n${r.problems.map((p) => `${p.line}: ${p.why}`).join('\n')}`;
        post.forEach((l, i) => {
          const line = i + 1;
          const entries = r.entries.filter((e) => e.line === line);
          const reported = r.problems.some((p) => p.line === line);
          if (l.kind === 'noise') assert.deepEqual(entries, [], `noise line ${line} read as a unit\n${why}`);
          else if (l.kind === 'good')
            assert.ok(entries.some((e) => e.unit === l.card && e.count === l.count) || reported, `line ${line} neither read nor reported\n${why}`);
          else if (l.kind === 'cut') assert.ok(reported, `cut name on line ${line} not reported\n${why}`);
          else {
            const read = entries.reduce((t, e) => t + e.count, 0);
            assert.ok(read === l.units || reported, `long line ${line}: ${read} of ${l.units} units read, nothing reported\n${why}`);
          }
        });
      }),
      propertySettings(60, 4040),
    );
  });

  it('a list of 140 units on one line reads all 140', () => {
    const names = Array.from({ length: 140 }, (_, i) => CARDS[i % CARDS.length]!);
    const text = names.join(', ');
    assert.ok(text.length > IMPORT_LIMITS.lineChars);
    const r = importRoster(text, ws);
    assert.equal(
      r.entries.reduce((t, e) => t + e.count, 0),
      140,
      r.problems.map((p) => p.why).join('\n'),
    );
    assert.deepEqual(r.problems, []);
  });

  it('the one-line roster of a fleet of 140 entries imports whole', () => {
    const myr = ws.cardsOf('Myr-Valari').map((r) => r.name);
    const units = Array.from({ length: 140 }, (_, i) => `  - unit: ${myr[i % myr.length]}\n    count: ${1 + (i % 3)}\n`).join('');
    const doc = ws.set('file:///ws/big.fleet.yaml', `name: Big\nfaction: Myr-Valari\npoints: 40000\nunits:\n${units}`) as FleetDocument;
    const short = renderRoster(buildRoster(doc, ws), 'short');
    ws.delete('file:///ws/big.fleet.yaml');
    assert.ok(short.trim().length > IMPORT_LIMITS.lineChars, `${short.length}`);
    const r = importRoster(short, ws);
    assert.equal(r.format, 'short');
    assert.equal(r.entries.length, 140);
    assert.equal(
      r.entries.reduce((t, e) => t + e.count, 0),
      Array.from({ length: 140 }, (_, i) => 1 + (i % 3)).reduce((a, b) => a + b, 0),
    );
  });

  it('one line too long to cut at a separator is read up to the limit and said so', () => {
    const text = `2x Lumen Cruiser\n${'Lumen Destroyer '.repeat(200)}`;
    const r = importRoster(text, ws);
    assert.ok(
      r.problems.some((p) => p.line === 2 && /only its first 2000 were read/.test(p.why)),
      JSON.stringify(r.problems),
    );
  });

  it('a card name cut short on its own line is reported with the card it begins', () => {
    const r = importRoster('2x Lumen Cruiser\nPrism Frigate\n', ws);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.closest]),
      [[2, 'Prism Frigate Squadron']],
    );
  });

  it('a text of more lines than are read says where reading stopped', () => {
    const text = `2x Lumen Cruiser\n${'\n'.repeat(IMPORT_LIMITS.lines)}2x Lumen Destroyer\n`;
    const r = importRoster(text, ws);
    assert.ok(
      r.problems.some((p) => p.line === IMPORT_LIMITS.lines + 1 && /were not read/.test(p.why)),
      JSON.stringify(r.problems),
    );
  });
});

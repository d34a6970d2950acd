/**
 * The red-team review: each attack that was reproduced, as a test that failed before
 * its fix. Figures for each case: `node --import tsx test/hardening/redteam-measure.ts`.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import fc from 'fast-check';
import { boundedDistance } from '../../server/src/core/model/suggest';
import { complete } from '../../server/src/core/features/completion';
import { codeActions } from '../../server/src/core/features/codeActions';
import { rename } from '../../server/src/core/features/navigation';
import { yamlScalar } from '../../server/src/core/features/shared';
import { hover } from '../../server/src/core/features/hover';
import { codeLenses } from '../../server/src/core/features/codeLens';
import { validateOptions, profileFromCard } from '../../server/src/core/sim/index';
import { resolveSettings } from '../../protocol';
import MarkdownIt from 'markdown-it';
import { markdownToPlain } from '../../server/src/core/features/plaintext';
import { iconSafe as clientIconSafe } from '../../client/src/labels';
import { alikeName, longNameCardFiles, unknownEntriesFleet } from './redteam';

describe('red team: did you mean', function () {
  this.timeout(120_000);

  it('2. checks a 500-entry fleet of unknown 900-character names against 2,000 cards of 900-character names within 5 s (it took minutes)', () => {
    const ws = new Workspace();
    longNameCardFiles().forEach((text, i) => ws.set(`file:///w/cards${i}.unit.yaml`, text));
    const fleet = ws.set('file:///w/red.fleet.yaml', unknownEntriesFleet())!;
    const t = performance.now();
    const problems = checkDocument(fleet, ws);
    const ms = performance.now() - t;
    assert.equal(problems.filter((p) => p.code === 'FS-UNIT-UNKNOWN').length, 500);
    assert.ok(ms < 5000, `took ${Math.round(ms)} ms`);
  });

  it('2. the same with names that all look alike, so that no cheap filter helps: bounded by the work budget', () => {
    const ws = new Workspace();
    longNameCardFiles(2000, 900, 500, 'Hostile', (i) => alikeName(900, i)).forEach((text, i) => ws.set(`file:///w/cards${i}.unit.yaml`, text));
    const fleet = ws.set(
      'file:///w/red.fleet.yaml',
      unknownEntriesFleet(500, 900, 'Hostile', (i) => alikeName(900, 5000 + i) + 'z'),
    )!;
    const t = performance.now();
    const problems = checkDocument(fleet, ws);
    const ms = performance.now() - t;
    const unknown = problems.filter((p) => p.code === 'FS-UNIT-UNKNOWN');
    assert.equal(unknown.length, 500);
    assert.ok(unknown[0]!.message.includes('did you mean'), 'the first entries still get suggestions');
    assert.ok(ms < 5000, `took ${Math.round(ms)} ms`);
  });

  it('2. the banded distance equals the full edit distance whenever it is within the bound', () => {
    const full = (a: string, b: string) => {
      let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[b.length]!;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 14 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 16 }), (a, b, max) => {
        const d = full(a, b);
        assert.equal(boundedDistance(a, b, max), d <= max ? d : max + 1);
      }),
      { seed: 17, numRuns: 3000 },
    );
  });

  it('2. still suggests the near names of an ordinary typo', () => {
    const ws = new Workspace();
    ws.set('file:///w/c.unit.yaml', 'faction: F\nunits:\n  - name: Lance Destroyer\n    class: Destroyer\n  - name: Maw Frigate\n    class: Frigate\n');
    const fleet = ws.set('file:///w/f.fleet.yaml', 'name: X\nfaction: F\npoints: 500\nunits:\n  - unit: Lance Destroyr\n  - unit: maw frigat\n')!;
    const msgs = checkDocument(fleet, ws)
      .filter((p) => p.code === 'FS-UNIT-UNKNOWN')
      .map((p) => p.message);
    assert.deepEqual(msgs, ['No card named "Lance Destroyr"; did you mean "Lance Destroyer"?', 'No card named "maw frigat"; did you mean "Maw Frigate"?']);
  });
});

/** The text with the edits made. */
function apply(text: string, edits: { span: { start: number; end: number }; newText: string }[]): string {
  return [...edits].sort((a, b) => b.span.start - a.span.start).reduce((t, e) => t.slice(0, e.span.start) + e.newText + t.slice(e.span.end), text);
}

describe('red team: names with control characters in edits', () => {
  /** Card names a pasted file can hold: CR, other C0 and C1 controls, DEL, separators, flow indicators. */
  const NAMES = [
    'Evil\rName',
    'Bell\u0007Ship',
    'Tab\tbed',
    'Esc\u001b[2K',
    'Next\u0085Line',
    'Del\u007f',
    'Sep\u2028Ship',
    'Comma, Ship',
    'Br[ack]et {x}',
    'Quote\'s "Ship"',
  ];
  const cardsFile = 'faction: F\nunits:\n' + NAMES.map((n) => `  - name: ${JSON.stringify(n)}\n    class: Frigate\n    points: 110\n`).join('');

  it('10. any name written by yamlScalar reads back as the same name, in a block and in a flow list', () => {
    const ws = new Workspace();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), (name) => {
        if (name.trim() !== name || !name) return;
        for (const [uri, text] of [
          ['file:///w/p.fleet.yaml', `name: X\nfaction: F\npoints: 500\nunits:\n  - unit: ${yamlScalar(name)}\n    count: 1\n`],
          ['file:///w/q.fleet.yaml', `name: X\nfaction: F\npoints: 500\nunits:\n  - { unit: ${yamlScalar(name)}, count: 1 }\n`],
        ] as const) {
          const doc = ws.set(uri, text);
          assert.ok(doc && doc.kind === 'fleet');
          assert.equal(doc.units?.items[0]?.unit.value, name, text);
        }
      }),
      { seed: 17, numRuns: 1500 },
    );
  });

  it('10. completion of a fleet entry inserts each such name so that the fleet still names the card', () => {
    for (const name of NAMES) {
      const ws = new Workspace();
      ws.set('file:///w/c.unit.yaml', cardsFile);
      const text = 'name: X\nfaction: F\npoints: 500\nunits:\n  - unit: \n    count: 1\n';
      const off = text.indexOf('unit: ') + 6;
      const doc = ws.set('file:///w/f.fleet.yaml', text)!;
      const item = complete(doc, ws, text, off).items.find((c) => c.label === name);
      assert.ok(item, `no completion for ${JSON.stringify(name)}`);
      const after = ws.set('file:///w/f.fleet.yaml', apply(text, [{ span: item.span, newText: item.insertText }]))!;
      assert.ok(after.kind === 'fleet');
      assert.equal(after.units?.items[0]?.unit.value, name, after.text);
      assert.deepEqual(
        checkDocument(after, ws).filter((p) => /UNIT-UNKNOWN|YAML/.test(p.code)),
        [],
        after.text,
      );
    }
  });

  it('10. the quick fix for a misspelt entry writes such a name so that the fleet names the card, in every quoting style', () => {
    let fixed = 0;
    for (const name of NAMES) {
      for (const typo of [`${name}x`, `'${name.replace(/'/g, "''").replace(/[\r\u0085\u2028\t]/g, ' ')}x'`, `${JSON.stringify(name + 'x')}`]) {
        const ws = new Workspace();
        ws.set('file:///w/c.unit.yaml', cardsFile);
        const text = `name: X\nfaction: F\npoints: 500\nunits:\n  - unit: ${typo.startsWith("'") || typo.startsWith('"') ? typo : yamlScalar(typo)}\n    count: 1\n`;
        const doc = ws.set('file:///w/f.fleet.yaml', text)!;
        const p = checkDocument(doc, ws).find((x) => x.code === 'FS-UNIT-UNKNOWN');
        if (!p) continue; // the typo read as some other card's name
        const fix = codeActions(doc, p.span, [p]).find(
          (a) => a.edits.some((e) => e.newText.includes(name.slice(0, 3))) && (p.data?.replacements ?? []).includes(name),
        );
        if (!fix) continue;
        const after = ws.set('file:///w/f.fleet.yaml', apply(text, fix.edits))!;
        assert.ok(after.kind === 'fleet');
        assert.equal(after.units?.items[0]?.unit.value, name, after.text);
        fixed++;
      }
    }
    assert.ok(fixed >= 2 * NAMES.length, `only ${fixed} fixes were tried`);
  });

  it('10. rename refuses a new name with any control character, as it refuses a line break', () => {
    const ws = new Workspace();
    ws.set('file:///w/c.unit.yaml', 'faction: F\nunits:\n  - name: Plain\n    class: Frigate\n');
    const doc = ws.get('file:///w/c.unit.yaml')!;
    const off = doc.text.indexOf('Plain') + 1;
    for (const bad of ['A\rB', 'A\u0007B', 'A\u001b[2KB', 'A\u0085B', 'A\u2028B', 'A\u007fB'])
      assert.match(rename(doc, ws, off, bad, (u) => ws.get(u)?.text).error ?? '', /one non-empty line/, JSON.stringify(bad));
    assert.equal(rename(doc, ws, off, 'Fine Name', (u) => ws.get(u)?.text).error, undefined);
  });
});

describe('red team: low', () => {
  const HOSTILE = 'Visit https://evil.example/pay www.evil.example mail@evil.example $(alert) $(sync~spin)';
  const cards = `faction: F\nunits:\n  - name: "${HOSTILE}"\n    class: Frigate\n    points: 110\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Pulse Laser — Ion, 9", 2, 4\n`;

  it('13. a name holding URLs and e-mail addresses shows as text in hovers: no link in the rendered Markdown', () => {
    const ws = new Workspace();
    ws.set('file:///w/c.unit.yaml', cards);
    const fleetText = `name: X\nfaction: F\npoints: 500\nunits:\n  - unit: "${HOSTILE}"\n`;
    const fleet = ws.set('file:///w/f.fleet.yaml', fleetText)!;
    const card = ws.get('file:///w/c.unit.yaml')!;
    const render = new MarkdownIt({ linkify: true });
    let seen = 0;
    for (const [doc, off] of [
      [fleet, fleetText.indexOf('Visit') + 2],
      [card, cards.indexOf('Visit') + 2],
    ] as const) {
      const h = hover(doc, ws, off, resolveSettings({}));
      assert.ok(h, 'no hover');
      const html = render.render(h.markdown);
      if (html.includes('evil')) seen++;
      assert.doesNotMatch(html, /<a /, html);
    }
    assert.ok(seen > 0, 'the name is shown');
  });

  it('13. code-lens titles show "$(" in card names as text, not as icons, and stay short', () => {
    const ws = new Workspace();
    ws.set('file:///w/c.unit.yaml', cards.replace('units:\n', `units:\n  - name: "${'Long '.repeat(5000)}"\n    class: Frigate\n`));
    const lenses = codeLenses(ws.get('file:///w/c.unit.yaml')!, ws, resolveSettings({ referenceTarget: HOSTILE }));
    assert.ok(lenses.length > 0);
    for (const l of lenses) {
      assert.doesNotMatch(l.title, /(^|[^\\])\$\(/, l.title);
      assert.ok(l.title.length <= 200, `${l.title.length} characters`);
    }
    const ws2 = new Workspace();
    ws2.set('file:///w/c.unit.yaml', cards.replace(HOSTILE, 'Target'));
    ws2.set('file:///w/t.unit.yaml', `faction: G\nunits:\n  - name: "${'Very long '.repeat(10000)}"\n    class: Frigate\n`);
    for (const l of codeLenses(ws2.get('file:///w/c.unit.yaml')!, ws2, resolveSettings({ referenceTarget: 'Very long' })))
      assert.ok(l.title.length <= 200, `${l.title.length} characters`);
  });

  it('13. quick-pick labels in the extension show "$(" as text', () => {
    assert.equal(clientIconSafe('A $(alert) B\n$(sync~spin)'), 'A \\$(alert) B \\$(sync~spin)');
  });

  it('13. the aim error quotes at most a short piece of a 100,000-character input', () => {
    const ws = new Workspace();
    const doc = ws.set('file:///w/c.unit.yaml', cards)!;
    const a = profileFromCard(doc.kind === 'unit' || doc.kind === 'faction' ? doc.units[0]! : undefined!).profile!;
    const v = validateOptions({ aim: 'x'.repeat(100_000) }, a, a);
    assert.ok(!v.options);
    for (const e of v.errors) assert.ok(e.length <= 1000, `${e.length} characters`);
    const w = validateOptions({ aim: ['x'.repeat(100_000)] }, a, a);
    for (const e of w.errors) assert.ok(e.length <= 1000, `${e.length} characters`);
  });
});

describe('red team: plain text for clients that ask for it', () => {
  it('12. shows a name full of Markdown and HTML exactly as the file has it, and a table as aligned columns', () => {
    const name = '<img src=x> *Shade* **B** | x \\ y_z_ `q` # 1. [l](u) https://e.example a@b.c';
    const ws = new Workspace();
    const text = `faction: F\nunits:\n  - name: ${JSON.stringify(name)}\n    class: Frigate\n    points: 110\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n`;
    const doc = ws.set('file:///w/c.unit.yaml', text)!;
    const h = hover(doc, ws, text.indexOf('img'), resolveSettings({}))!;
    const plain = markdownToPlain(h.markdown);
    assert.ok(plain.includes(name), plain);
    assert.match(plain, /^M {2,}BS {2}D {3}SH {2}AC {2}HP {2}LD {3}CR {3}T$/m, plain);
    assert.equal(markdownToPlain('**a** _b_ *c* `d` \\*e\\*\n\n---\n\n> q\n\n- i\n\n## H'), 'a b c d *e*\n\n────────────────────────\n\n  q\n\n• i\n\nH');
  });
});

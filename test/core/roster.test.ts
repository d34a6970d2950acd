/**
 * The roster model and its renderers: what adds up, where problems land, and that no name, however
 * hostile, becomes markup in the HTML or the markdown.
 */
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { buildRoster } from '../../server/src/core/roster/model';
import { clean, rosterHtml, rosterMarkdown, rosterShort, rosterText, rosterJson } from '../../server/src/core/roster/render';
import type { FleetDocument } from '../../server/src/core/model/types';
import { HOSTILE, HOSTILE_TEXTS, hostileWorkspace, workspaceOf } from './roster-fixtures';

const CARDS = `faction: Testers
units:
  - name: Hauler
    class: Carrier
    points: 300
    stats: "6/3 5+ 9+ 10 5+ 11 5/3 6/3 7"
    weapons:
      - Flak — Auto, 6", 1, 5
      - Lance — Energy, 18", 2, 2
      - Veil — Ion, 12", 1, 3
  - name: Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ - - 1 7/2 - -"
    weapons:
      - Darts — Energy, 6", 1, 1
  - name: Broken Destroyer
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Bad — Energy, 10", 9, 3
      - Good — Ion, 9", 2, 4
`;

function roster(fleet: string, files: Record<string, string> = { 'file:///ws/t.unit.yaml': CARDS }) {
  const ws = workspaceOf({ ...files, 'file:///ws/f.fleet.yaml': fleet });
  return buildRoster(ws.get('file:///ws/f.fleet.yaml') as FleetDocument, ws);
}

describe('roster model', () => {
  it('adds up copies and embarked units, and totals by class sum to the fleet total', () => {
    const r = roster(`name: T\nfaction: Testers\npoints: 1000\nunits:\n  - unit: Hauler\n    count: 2\n    embark: [Wing, Wing]\n  - Wing\n`);
    assert.equal(r.total, 2 * (300 + 120) + 60);
    assert.equal(r.remaining, 1000 - 900);
    assert.deepEqual(
      r.entries.map((e) => [e.unit, e.count, e.cardPoints, e.each, e.total]),
      [
        ['Hauler', 2, 300, 420, 840],
        ['Wing', 1, 60, 60, 60],
      ],
    );
    assert.deepEqual(r.byClass, [
      { class: 'Carrier', units: 2, points: 600 },
      { class: 'Fighter', units: 5, points: 300 },
    ]);
    assert.equal(r.legal, true);
    assert.equal(rosterShort(r), `T (Testers): 2× Hauler + 2× Wing 840, Wing 60; 900/1000 · rules July 30 · ${r.digest}`);
    assert.match(r.digest, /^fs1-[0-9a-f]{16}$/);
  });

  it('puts each problem on its entry, the fleet-wide ones overall, and card problems on the entries using the card', () => {
    const r = roster(`name: T\nfaction: Testers\npoints: 500\nunits:\n  - unit: Broken Destroyer\n  - unit: Nope\n  - unit: Broken Destroyer\n`);
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['FS-FLEET-UNDER'],
    );
    assert.deepEqual(
      r.entries[1]!.problems.map((p) => [p.code, p.line, p.inCard]),
      [['FS-UNIT-UNKNOWN', 6, false]],
    );
    const cardCodes = r.entries[0]!.problems.map((p) => p.code).sort();
    assert.deepEqual(cardCodes, ['FS-RANGE-BAND', 'FS-WEAPON-DAMAGE']);
    assert.ok(r.entries[0]!.problems.every((p) => p.inCard && p.uri === 'file:///ws/t.unit.yaml'));
    // The card is used twice; its two errors count once, plus the unknown card.
    assert.deepEqual(r.counts, { errors: 3, warnings: 0, infos: 1 });
    assert.equal(r.legal, false);
    assert.equal(r.entries[1]!.complete, false);
    assert.equal(r.total, 290);
    assert.equal(rosterShort(r), `T (Testers): Broken Destroyer 145, Nope ?, Broken Destroyer 145; 290/500 (3 errors) · rules July 30 · ${r.digest}`);
    const text = rosterText(r);
    assert.equal(text.split('\n')[5]!, 'NOT LEGAL AS WRITTEN: 3 errors (1 in the fleet list, 2 in the cards it uses), 1 note (see Problems below)');
    assert.deepEqual(r.fleetCounts, { errors: 1, warnings: 0, infos: 1 });
    assert.deepEqual(r.cardCounts, { errors: 2, warnings: 0, infos: 0 });
    assert.equal(text.match(/FS-WEAPON-DAMAGE/g)!.length, 3, 'listed under both entries and once in Problems');
  });

  it('names the faction as its cards spell it', () => {
    assert.equal(roster(`name: T\nfaction: tESTERS\npoints: 500\nunits: [Wing]\n`).faction, 'Testers');
    assert.equal(roster(`name: T\nfaction: Nobody\npoints: 500\nunits: [Wing]\n`).faction, 'Nobody');
  });

  it('over the limit: the top of every format says so', () => {
    const r = roster(`name: Big\nfaction: Testers\npoints: 500\nunits:\n  - unit: Hauler\n    count: 2\n`);
    assert.equal(r.over, true);
    assert.equal(r.remaining, -100);
    const top = (s: string) => s.split('\n').slice(0, 12).join('\n');
    assert.match(top(rosterText(r)), /600 \/ 500 pts \(100 pts over the limit\)[\s\S]*NOT LEGAL AS WRITTEN: 1 error/);
    assert.match(top(rosterMarkdown(r)), /> \*\*⚠ Not legal as written: 1 error\.\*\*/);
    const html = rosterHtml(r);
    assert.ok(html.indexOf('class="verdict"') < html.indexOf('<h2>Units</h2>'));
    assert.match(html, /The fleet costs 600 pts, 100 over its 500 pts limit/);
    assert.match(rosterShort(r), /; 600\/500 \(1 error\) · rules July 30 · fs1-[0-9a-f]{16}$/);
  });

  it('a fleet without cards, without a limit, or that is not YAML still gets a roster', () => {
    const none = roster(`name: Lonely\nfaction: Nobody\npoints: 1000\nunits:\n  - unit: Ghost\n`, {});
    assert.equal(none.entries[0]!.card, undefined);
    assert.equal(none.total, 0);
    assert.equal(none.board, undefined);
    const nolimit = roster(`name: Free\nfaction: Testers\nunits: [Wing]\n`);
    assert.equal(nolimit.limit, undefined);
    assert.equal(nolimit.remaining, undefined);
    assert.equal(rosterShort(nolimit), `Free (Testers): Wing 60; 60 pts (1 error) · rules July 30 · ${nolimit.digest}`);
    for (const text of ['', 'units: [', '\u0000\u0001binary', '- just\n- a list\n', 'name: [unclosed\nunits:\n  - unit: Wing\n']) {
      const r = roster(text);
      assert.equal(r.legal, false, JSON.stringify(text));
      for (const out of [rosterText(r), rosterMarkdown(r), rosterHtml(r), JSON.stringify(rosterJson(r))]) assert.ok(out.length > 0);
    }
  });

  it('the Command Board comes from the faction file of the fleet faction, matched case-insensitively', () => {
    const { ws, fleet } = hostileWorkspace();
    const r = buildRoster(fleet, ws);
    assert.equal(r.board?.commandAbilities.length, 6);
    assert.equal(r.board?.cp, 3);
  });
});

describe('roster escaping', () => {
  const { ws, fleet } = hostileWorkspace();
  const r = buildRoster(fleet, ws);

  it('clean() makes file text one printable line', () => {
    assert.equal(clean('a\nb\r\nc\td'), 'a b c d');
    assert.equal(clean('Bell\u0007x\u202ey'), 'Bell\uFFFDx\uFFFDy');
  });

  it('HTML: only the renderer’s own tags, no script, no event handler, no link; every name readable as text', () => {
    const html = rosterHtml(r);
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase()));
    const allowed =
      // svg, rect and path: the roster's QR code (qr.ts).
      'html head meta title style body header h1 h2 h3 p span section ul li small table thead tbody tfoot tr th td strong div article dl dt dd em footer svg rect path';
    for (const t of tags) assert.ok(allowed.split(' ').includes(t), `unexpected <${t}>`);
    for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) assert.doesNotMatch(tag, /\s(on[a-z]+|href|src|action|formaction)\s*=/i, tag);
    assert.match(html, /default-src 'none'/);
    for (const name of HOSTILE_TEXTS) {
      const escaped = clean(name).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
      assert.ok(html.includes(escaped), `missing ${name}`);
    }
    assert.doesNotMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202e]/);
  });

  it('markdown: rendered as GitHub does (HTML allowed), names stay text: no tag, link, code span or emphasis from a file', () => {
    const src = rosterMarkdown(r);
    const mdit = new MarkdownIt({ html: true, linkify: false });
    const out = mdit.render(src);
    assert.doesNotMatch(out, /<(script|img|svg|marquee|iframe|u|i|b|a|code|del|s|em|br)[\s>]/i);
    assert.equal(out.match(/<h1>/g)!.length, 1);
    const tokens = mdit.parse(src, {});
    const inline = tokens.filter((t) => t.type === 'inline').flatMap((t) => t.children ?? []);
    const kinds = new Set(inline.map((t) => t.type));
    for (const k of kinds) assert.ok(['text', 'strong_open', 'strong_close', 'softbreak'].includes(k), `unexpected inline ${k}`);
    const text = inline
      .filter((t) => t.type === 'text')
      .map((t) => t.content)
      .join('');
    for (const name of HOSTILE_TEXTS) {
      const expected = clean(name).replace(/@(?=everyone)/, '@\u200b');
      assert.ok(text.includes(expected), `"${name}" does not read back as itself`);
    }
    // Only the renderer's own headings; every entry is one list item.
    assert.deepEqual(
      tokens.filter((t) => t.type === 'heading_open').map((t) => t.tag),
      ['h1', 'h2', 'h2', 'h2', 'h2', 'h2'],
    );
    assert.equal(tokens.filter((t) => t.type === 'bullet_list_open' && t.level === 0).length, 5);
  });

  it('markdown: a chat mention in a name pings no one', () => {
    assert.ok(!rosterMarkdown(r).includes('@everyone'));
    assert.ok(rosterMarkdown(r).includes('@\u200beveryone Cruiser'));
  });

  it('text and the short line: one line per item, no control characters', () => {
    for (const out of [rosterText(r), rosterShort(r)]) {
      assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u202e]/);
      assert.ok(out.includes(clean(HOSTILE.newline)));
    }
    assert.equal(rosterShort(r).split('\n').length, 1);
  });

  it('JSON keeps names exactly as the files wrote them', () => {
    const j = rosterJson(r) as { name: string; entries: { unit: string }[] };
    assert.equal(j.name, HOSTILE.fleet);
    assert.equal(j.entries[6]!.unit, HOSTILE.newline);
    assert.equal(j.entries[7]!.unit, HOSTILE.control);
  });
});

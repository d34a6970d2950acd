/**
 * `fabled-star cards` without a browser: what it prints (one card per card, or per copy fielded
 * with its embarked units), its usage problems, escaping, the fitting of long texts, and the
 * `fabledstar:` link that import and verify read as the one line.
 */
import assert from 'node:assert/strict';
import { runCards } from '../../server/src/cli/cards';
import { runImport } from '../../server/src/cli/import';
import { runVerify } from '../../server/src/cli/verify';
import { runRoster } from '../../server/src/cli/roster';
import { fitTexts, shorten } from '../../server/src/core/roster/cards';
import { linkText, rosterLink } from '../../server/src/core/roster/link';
import { memoryIO } from './memoryIO';

const CARDS = `faction: Reef
units:
  - name: Reef Carrier
    class: Carrier
    points: 300
    stats: "6/3 6+ 10+ 10 5+ 12 5/3 5/4 7"
    weapons:
      - Flak — Auto, 6", 1, 5
    orders: [Recover Craft]
    abilities: [Launch Bays (Reserves)]
  - name: Reef Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ - - 1 7/2 - -"
    weapons:
      - Claws — Piercing, 3", 1, 1
    abilities: [Dogfighters]
  - name: Reef Screen
    class: Escort
    points: 80
    stats: "9/3 6+ 7+ 2 7+ 2 7/2 7/2 1"
    weapons:
      - Hook — Auto, 9", 1, 3
    abilities: [Combined Shields]
  - name: <script>alert("x")</script> & Co
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
`;
const FLEET = `name: Reef Patrol
faction: Reef
points: 1000
units:
  - unit: Reef Carrier
    count: 2
    embark: [Reef Wing, Reef Wing]
  - unit: Reef Screen
  - unit: Nobody Here
`;

const files = { '/ws/reef.unit.yaml': CARDS, '/ws/patrol.fleet.yaml': FLEET };
const cardsOf = (html: string) => [...html.matchAll(/<article class="card" data-card="([^"]*)"/g)].map((m) => m[1]);

describe('fabled-star cards', () => {
  it('prints one card per card of the files, escaped, with one HP box per HP per base and the SH pool of a squadron', async () => {
    const io = memoryIO(files);
    assert.equal(await runCards(['/ws/reef.unit.yaml'], io), 0, io.err);
    assert.deepEqual(cardsOf(io.out), ['Reef Carrier', 'Reef Wing', 'Reef Screen', '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co']);
    assert.ok(!io.out.includes('<script>'));
    const card = (name: string) => io.out.split('<article').find((c) => c.includes(`data-card="${name}"`))!;
    assert.equal(card('Reef Wing').match(/data-track="hp"/g)!.length, 4, '4 bases x 1 HP');
    assert.deepEqual(
      [...card('Reef Wing').matchAll(/data-base="(\d)"/g)].map((m) => m[1]),
      ['1', '2', '3', '4'],
    );
    assert.equal(card('Reef Screen').match(/data-track="sh"/g)!.length, 4, 'Combined Shields: 2 SH x 2 bases');
    assert.equal(card('Reef Carrier').match(/data-track="bay"/g)!.length, 3);
    // A bare order the rulebook knows: its LD Difficulty and summary; a dash prints as the rulebook's.
    assert.match(card('Reef Carrier'), /Order: Recover Craft \(LD 3\)/);
    assert.match(card('Reef Wing'), /<td>\u2014<\/td>/);
    assert.match(io.out, /@page \{ size: A4; margin: 0; \}/);
    assert.ok(!/<script/i.test(io.out));
  });

  it('a fleet: one card per copy, each followed by its embarked units; unknown names listed on stderr (exit 1); a QR code on the page', async () => {
    const io = memoryIO(files);
    assert.equal(await runCards(['--fleet', '/ws/patrol.fleet.yaml', '--paper', 'letter'], io), 1);
    assert.deepEqual(cardsOf(io.out), ['Reef Carrier', 'Reef Wing', 'Reef Wing', 'Reef Carrier', 'Reef Wing', 'Reef Wing', 'Reef Screen']);
    assert.match(io.out, /Copy 1 of 2/);
    assert.match(io.out, /Embarked on Reef Carrier \(2 of 2\)/);
    assert.match(io.err, /no card named "Nobody Here"/);
    assert.match(io.out, /<svg class="qr"/);
    assert.match(io.out, /size: letter landscape/);
  });

  it('usage problems: nothing to print, a bad paper, a fleet among the PATHS, a PDF to a terminal', async () => {
    for (const [args, says] of [
      [[], /give card files or folders/],
      [['/ws/reef.unit.yaml', '--paper', 'a3'], /--paper must be a4 or letter/],
      [['/ws/patrol.fleet.yaml'], /give it as --fleet \/ws\/patrol.fleet.yaml/],
      [['--fleet', '/ws/reef.unit.yaml'], /not a fleet list/],
      [['/ws/missing.unit.yaml'], /no such file or folder/],
      [['/ws/reef.unit.yaml', '--format', 'svg'], /--format must be html or pdf/],
    ] as const) {
      const io = memoryIO(files);
      assert.equal(await runCards([...args], io), 2, args.join(' '));
      assert.match(io.err, says);
      assert.equal(io.out, '');
    }
    const tty = Object.assign(memoryIO(files), { stdoutIsTerminal: () => true });
    assert.equal(await runCards(['/ws/reef.unit.yaml', '--format', 'pdf'], tty), 2);
    assert.match(tty.err, /write it to a file/);
  });

  it('a PDF without a Chromium: says how to get one, writes nothing', async () => {
    const saved = { PATH: process.env.PATH, CHROMIUM_PATH: process.env.CHROMIUM_PATH };
    process.env.PATH = '/nonexistent';
    delete process.env.CHROMIUM_PATH;
    try {
      const bytes: Uint8Array[] = [];
      const io = Object.assign(memoryIO(files), { stdoutBytes: (b: Uint8Array) => void bytes.push(b), stdoutIsTerminal: () => false });
      assert.equal(await runCards(['/ws/reef.unit.yaml', '--format', 'pdf'], io), 2);
      assert.match(io.err, /no Chromium found.*apt-get install chromium.*CHROMIUM_PATH.*--format html/);
      assert.deepEqual(bytes, []);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.CHROMIUM_PATH !== undefined) process.env.CHROMIUM_PATH = saved.CHROMIUM_PATH;
    }
  });

  it('texts: cut at a word with the section that has them in full; names only when not a line each fits', () => {
    assert.equal(shorten('one two three four', 12, ''), 'one two…');
    assert.equal(shorten('x'.repeat(50), 10), `${'x'.repeat(9)}…`);
    const items = [
      { head: 'Ram (T)', body: 'In base contact, roll dice equal to Tonnage; each 5+ hits both units, ignoring Shields. '.repeat(4), tail: ' (§13)' },
      { head: 'Hit & Run', body: 'This unit may Move after performing a Fire action.', tail: ' (Destroyer card)' },
    ];
    const fit = fitTexts(items, 3, 40);
    assert.equal(fit.mode, 'items');
    assert.match(fit.items[0]!.text, /[a-z]… \(§13\)$/);
    assert.equal(fit.items[1]!.text, items[1]!.body, 'the short one keeps its whole text');
    assert.ok(fit.items.every((it) => it.head.length + 1 + it.text.length <= it.lines * 40));
    const names = fitTexts(items, 1, 40);
    assert.equal(names.mode, 'names');
    assert.match(names.items[0]!.text, /Ram \(T\) \(§13\)/);
  });

  it('a fabledstar: link is the one line: import and verify read it', async () => {
    const legal = { ...files, '/ws/patrol.fleet.yaml': FLEET.replace('  - unit: Nobody Here\n', '') };
    const io = memoryIO(legal);
    assert.equal(await runRoster(['/ws/patrol.fleet.yaml', '--format', 'short'], io), 0, io.out);
    const short = io.out.trim();
    const link = rosterLink(short);
    assert.match(link, /^fabledstar:[^\s]+$/);
    assert.equal(linkText(link), short);
    assert.equal(linkText('fabledstar:%E0%A4%A'), 'fabledstar:%E0%A4%A', 'a link that does not decode is text');
    const a = memoryIO({ ...legal, '/ws/link.txt': link });
    assert.equal(await runImport(['/ws/link.txt'], a), 0, a.err);
    const b = memoryIO({ ...legal, '/ws/line.txt': short });
    await runImport(['/ws/line.txt'], b);
    assert.equal(a.out, b.out);
    assert.match(a.out, /unit: Reef Carrier/);
    const v = memoryIO({ ...legal, '/ws/link.txt': link });
    assert.equal(await runVerify(['/ws/link.txt'], v), 0, v.out);
  });
});

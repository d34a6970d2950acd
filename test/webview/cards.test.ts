/**
 * The printable card sheet (`fabled-star cards`) in Chromium: printed to PDF, its pages, the cards'
 * boxes (63 x 88 mm, inside their page), the names in the PDF's text, the damage boxes; the QR code
 * of the printed roster read by an independent decoder (jsQR) and imported back into the fleet; a
 * card with the longest texts still inside its box.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { launchChromium } from '../chromium';
import { runCards } from '../../server/src/cli/cards';
import { runRoster } from '../../server/src/cli/roster';
import { runImport } from '../../server/src/cli/import';
import { runVerify } from '../../server/src/cli/verify';
import { nodeIO } from '../../server/src/cli/io';
import { Workspace } from '../../server/src/core/workspace';
import { CLASSES, KNOWN_ABILITIES, UNIVERSAL_RULES, type UnitClass } from '../../server/src/core/rules/data';
import { section } from '../../server/src/core/rules/text';

const ROOT = resolve(__dirname, '../..');

async function cli(args: string[], cwd = ROOT): Promise<{ code: number; out: string; err: string; bytes: Uint8Array[] }> {
  const r = { code: 0, out: '', err: '', bytes: [] as Uint8Array[] };
  const io = {
    ...nodeIO(),
    cwd,
    stdout: (s: string) => void (r.out += s),
    stderr: (s: string) => void (r.err += s),
    stdoutBytes: (b: Uint8Array) => void r.bytes.push(b),
    stdoutIsTerminal: () => false,
  };
  const [name, ...rest] = args;
  const run = { cards: runCards, roster: runRoster, import: runImport, verify: runVerify }[name as 'cards'];
  r.code = await run(rest, io);
  return r;
}

async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str : '')).join('');
  }
  return { pages: doc.numPages, text };
}

/** Each page's size in points, as the PDF gives it (its view box). */
async function pdfPageSizes(bytes: Uint8Array): Promise<{ w: number; h: number }[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const out: { w: number; h: number }[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const [x0, y0, x1, y1] = (await doc.getPage(i)).view;
    out.push({ w: x1! - x0!, h: y1! - y0! });
  }
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, '');

interface Box {
  card: string;
  page: number;
  w: number;
  h: number;
  inside: boolean;
  hp: Record<string, number>;
  sh: number;
  bay: number;
  overflow: string[];
  name: string;
}

/** Every card's box in mm, whether it is inside its page, its damage boxes, and what spills out of it. */
async function measure(page: Page): Promise<Box[]> {
  await page.emulateMedia({ media: 'print' });
  return page.evaluate(() => {
    const px = 96 / 25.4;
    return Array.from(document.querySelectorAll('.card') as NodeListOf<HTMLElement>).map((card) => {
      const r = card.getBoundingClientRect();
      const sheet = card.closest('.sheet') as HTMLElement;
      const s = sheet.getBoundingClientRect();
      const hp: Record<string, number> = {};
      for (const b of Array.from(card.querySelectorAll('[data-track="hp"]') as NodeListOf<HTMLElement>)) hp[b.dataset.base!] = (hp[b.dataset.base!] ?? 0) + 1;
      const overflow: string[] = [];
      for (const el of Array.from(card.querySelectorAll('*') as NodeListOf<HTMLElement>)) {
        const e = el.getBoundingClientRect();
        if (e.width === 0 && e.height === 0) continue;
        if (e.left < r.left - 0.5 || e.right > r.right + 0.5 || e.top < r.top - 0.5 || e.bottom > r.bottom + 0.5)
          overflow.push(`${el.tagName}.${el.className}: ${el.textContent?.slice(0, 40)}`);
        if (el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0)
          overflow.push(`clamped ${el.tagName}.${el.className}: ${el.textContent?.slice(0, 40)}`);
      }
      return {
        card: card.dataset.card!,
        page: Number(sheet.dataset.page),
        w: r.width / px,
        h: r.height / px,
        inside: r.left >= s.left - 0.5 && r.right <= s.right + 0.5 && r.top >= s.top - 0.5 && r.bottom <= s.bottom + 0.5,
        hp,
        sh: card.querySelectorAll('[data-track="sh"]').length,
        bay: card.querySelectorAll('[data-track="bay"]').length,
        overflow,
        name: card.querySelector('h2')!.textContent!,
      };
    });
  });
}

/** Each card of the files as the test reads it (not through the sheet's code): bases and HP per base. */
function expectedTracks(files: string[]): Map<string, { bases: number; hp: number }> {
  const ws = new Workspace();
  for (const f of files) ws.set(`file://${f}`, readFileSync(f, 'utf8'));
  const out = new Map<string, { bases: number; hp: number }>();
  for (const ref of ws.allCards()) {
    const c = ref.card;
    const hp = c.stats?.entries.HP?.value;
    out.set(ref.name, { bases: c.bases?.value ?? CLASSES[c.class.value as UnitClass].bases, hp: hp?.kind === 'count' ? hp.n : 0 });
  }
  return out;
}

describe('printable unit cards (Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;
  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  });
  after(async () => browser?.close());

  const exampleFiles = [
    'examples/consumed/maw-capitals.unit.yaml',
    'examples/consumed/maw-squadrons.unit.yaml',
    'examples/consumed/consumed.faction.yaml',
    'examples/myr-valari/myr-valari.unit.yaml',
    'examples/myr-valari/myr-valari.faction.yaml',
  ].map((f) => join(ROOT, f));

  for (const [what, args, expectCards] of [
    ['the bundled example factions', ['examples/consumed', 'examples/myr-valari'], 20],
    ['a fleet with a Carrier and embarked craft', ['--fleet', 'examples/fleets/battle-2000.fleet.yaml', '--cards', 'examples'], undefined],
  ] as const) {
    it(`${what}: ceil(cards / 9) A4 pages, 63 x 88 mm boxes inside them, every name in the PDF, one HP box per HP per base`, async () => {
      const html = await cli(['cards', ...args]);
      assert.equal(html.code, 0, html.err);
      await page.setContent(html.out);
      const boxes = await measure(page);
      if (expectCards !== undefined) assert.equal(boxes.length, expectCards);
      assert.ok(boxes.length > 9, 'more than a page of cards');
      const expected = expectedTracks(exampleFiles);
      for (const b of boxes) {
        assert.ok(Math.abs(b.w - 63) <= 1 && Math.abs(b.h - 88) <= 1, `${b.card}: ${b.w.toFixed(2)} x ${b.h.toFixed(2)} mm`);
        assert.ok(b.inside, `${b.card} is inside its page`);
        assert.deepEqual(b.overflow, [], `${b.card}: nothing spills out`);
        const e = expected.get(b.card)!;
        assert.ok(e, b.card);
        assert.deepEqual(b.hp, Object.fromEntries(Array.from({ length: e.bases }, (_, i) => [String(i + 1), e.hp])), `${b.card}: HP boxes per base`);
      }
      const pdf = await cli(['cards', ...args, '--format', 'pdf']);
      assert.equal(pdf.code, 0, pdf.err);
      const { pages, text } = await pdfText(Buffer.concat(pdf.bytes));
      assert.equal(pages, Math.ceil(boxes.length / 9));
      // Each page of the PDF is an A4 page: 595.3 x 841.9 pt.
      for (const size of await pdfPageSizes(Buffer.concat(pdf.bytes)))
        assert.ok(Math.abs(size.w - 595.3) <= 2 && Math.abs(size.h - 841.9) <= 2, `a page of ${size.w} x ${size.h} pt`);
      const flat = squash(text);
      const ws = new Workspace();
      for (const f of exampleFiles) ws.set(`file://${f}`, readFileSync(f, 'utf8'));
      for (const name of new Set(boxes.map((b) => b.card))) {
        assert.ok(flat.includes(squash(name)), `card name ${name} in the PDF`);
        const ref = ws.allCards().find((r) => r.name === name)!;
        for (const w of ref.card.weapons?.items ?? []) assert.ok(flat.includes(squash(w.name.value!)), `weapon ${w.name.value} of ${name} in the PDF`);
      }
    });
  }

  it('a Carrier has one bay box per unit it carries, and its embarked craft get cards of their own', async () => {
    const html = await cli(['cards', '--fleet', 'examples/fleets/battle-2000.fleet.yaml', '--cards', 'examples']);
    await page.setContent(html.out);
    const boxes = await measure(page);
    const carrier = boxes.find((b) => b.card === 'Dawnhold Carrier')!;
    assert.equal(carrier.bay, 3);
    assert.ok(boxes.some((b) => b.card === 'Veilwing Fighter Wing') && boxes.some((b) => b.card === 'Lumen Bomber Wing'));
  });

  it('letter: eight cards to a landscape page, 63 x 88 mm boxes inside it', async () => {
    const html = await cli(['cards', 'examples/consumed', 'examples/myr-valari', '--paper', 'letter']);
    await page.setContent(html.out);
    const boxes = await measure(page);
    assert.equal(boxes.length, 20);
    assert.equal(Math.max(...boxes.map((b) => b.page)), Math.ceil(20 / 8));
    for (const b of boxes) {
      assert.ok(Math.abs(b.w - 63) <= 1 && Math.abs(b.h - 88) <= 1, `${b.card}: ${b.w.toFixed(2)} x ${b.h.toFixed(2)} mm`);
      assert.ok(b.inside, `${b.card} is inside its page`);
      assert.deepEqual(b.overflow, [], `${b.card}: nothing spills out`);
    }
    // The sheet is the page Letter is, turned: 279.4 x 215.9 mm.
    const sheets = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.sheet') as NodeListOf<HTMLElement>).map((s) => {
        const r = s.getBoundingClientRect();
        return { w: r.width / (96 / 25.4), h: r.height / (96 / 25.4) };
      }),
    );
    for (const s of sheets) assert.ok(Math.abs(s.w - 279.4) <= 1 && Math.abs(s.h - 215.9) <= 1, `a sheet of ${s.w.toFixed(1)} x ${s.h.toFixed(1)} mm`);
    const pdf = await cli(['cards', 'examples/consumed', 'examples/myr-valari', '--paper', 'letter', '--format', 'pdf']);
    const bytes = Buffer.concat(pdf.bytes);
    assert.equal((await pdfText(bytes)).pages, 3);
    // Each page of the PDF is a Letter page turned landscape: 792 x 612 pt.
    for (const size of await pdfPageSizes(bytes)) assert.ok(Math.abs(size.w - 792) <= 2 && Math.abs(size.h - 612) <= 2, `a page of ${size.w} x ${size.h} pt`);
  });

  it('the longest texts (every ability with its full rule text, six weapons) fit the box; a 12,000-character name ends in an ellipsis', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-cards-'));
    const abilities = [...KNOWN_ABILITIES.map((a) => a.name), ...UNIVERSAL_RULES.map((r) => r.name), 'Launch Bay Tier 2'].map((name) => {
      const a = KNOWN_ABILITIES.find((k) => k.name === name) ?? UNIVERSAL_RULES.find((k) => k.name === name);
      const s = section(a?.section ?? '6');
      return { name, text: `${s?.rule ?? ''} ${s?.inPlay ?? ''}`.trim() || (a?.summary ?? '') };
    });
    const long = (name: string, cls: string) => ({
      name,
      class: cls,
      points: 480,
      stats: { M: '12/12', BS: '3+', D: '3+', SH: 20, AC: '3+', HP: 30, LD: '3/10', CR: '3/10', T: 10 },
      weapons: Array.from({ length: 6 }, (_, i) => ({
        name: `Annihilation Lance Battery Mark ${i + 1}`,
        type: 'Piercing',
        range: '30"',
        damage: 5,
        attacks: 12,
      })),
      orders: [
        { name: 'Emergency Power', difficulty: 4, range: '12"', effect: section(16)!.rule },
        { name: 'Brace Positions', difficulty: 3, effect: section(16)!.rule },
      ],
      abilities,
    });
    const fewer = { ...long('Three Long Abilities', 'Capital Ship'), weapons: long('', '').weapons.slice(0, 3), abilities: abilities.slice(0, 3) };
    const escort = { ...long('Escort Long', 'Escort'), stats: { M: '12', BS: '3+', D: '3+', SH: 20, AC: '3+', HP: 30, LD: '3/10', CR: '3/10', T: 2 } };
    const yaml = JSON.stringify({
      faction: 'Test <script>alert(1)</script>',
      units: [long('Longest Texts', 'Dreadnought'), long('N'.repeat(6000) + ' ' + 'x'.repeat(5999), 'Dreadnought'), escort, fewer],
    });
    writeFileSync(join(dir, 'long.unit.yaml'), yaml);
    const html = await cli(['cards', dir]);
    assert.equal(html.code, 0, html.err);
    assert.ok(!html.out.includes('<script>'), 'file text is escaped');
    await page.setContent(html.out);
    const boxes = await measure(page);
    assert.equal(boxes.length, 4);
    for (const b of boxes) {
      assert.ok(Math.abs(b.w - 63) <= 1 && Math.abs(b.h - 88) <= 1, `${b.card.slice(0, 20)}: ${b.w} x ${b.h}`);
      assert.deepEqual(b.overflow, [], `${b.card.slice(0, 20)}: nothing spills out`);
    }
    const named = boxes[1]!;
    assert.equal(named.card.length, 12_000);
    assert.ok(named.name.endsWith('…') && named.name.length < 100, named.name);
    // Abilities cut at a word name the section that has them in full; when not even a line each fits, their names run on.
    assert.match(html.out, /[a-z]… \(§\d+\)/);
    assert.match(html.out, /and \d+ more/);
    assert.equal(boxes[2]!.sh, 40, 'an Escort squadron: its Combined Shields pool, 20 per base x 2');
  });

  it('the printed roster carries a QR code that an independent decoder reads to the one line, which import turns back into the fleet (verify passes)', async () => {
    const roster = await cli(['roster', 'examples/fleets/battle-2000.fleet.yaml', '--cards', 'examples', '--format', 'html']);
    const short = (await cli(['roster', 'examples/fleets/battle-2000.fleet.yaml', '--cards', 'examples', '--format', 'short'])).out.trim();
    const sheet = await cli(['cards', '--fleet', 'examples/fleets/battle-2000.fleet.yaml', '--cards', 'examples']);
    // At its printed size, rendered at 384 dpi as a phone's camera would see the paper.
    const sharp = await browser.newPage({ viewport: { width: 1100, height: 1200 }, deviceScaleFactor: 4 });
    for (const html of [roster.out, sheet.out]) {
      await sharp.setContent(html);
      await sharp.emulateMedia({ media: 'print' });
      const png = await sharp.locator('svg.qr').first().screenshot();
      const { data, width, height } = PNG.sync.read(png);
      const code = jsQR(new Uint8ClampedArray(data), width, height);
      assert.ok(code, 'the QR code decodes');
      assert.equal(code.data, short);
      const dir = mkdtempSync(join(tmpdir(), 'fs-qr-'));
      writeFileSync(join(dir, 'scanned.txt'), code.data);
      const imported = await cli(['import', join(dir, 'scanned.txt'), '--cards', 'examples']);
      assert.equal(imported.code, 0, imported.err);
      writeFileSync(join(dir, 'back.fleet.yaml'), imported.out);
      const again = (await cli(['roster', join(dir, 'back.fleet.yaml'), '--cards', 'examples', '--format', 'short'])).out.trim();
      assert.equal(again.match(/fs1-[0-9a-f]{16}/)![0], short.match(/fs1-[0-9a-f]{16}/)![0], 'the same fleet');
      const verified = await cli(['verify', join(dir, 'scanned.txt'), '--cards', 'examples']);
      assert.equal(verified.code, 0, verified.out);
    }
    await sharp.close();
  });
});

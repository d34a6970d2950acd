/**
 * `fabledStar/cardSheet` (Print Unit Cards) over stdio against the bundled server: a unit file's
 * cards, a fleet's as fielded with its QR code, the paper, and the roster's `copyLink`.
 */
import { strict as assert } from 'node:assert';
import { fleetServer, type Client } from './harness';
import { FILES, FLEET } from './fixtures';
import type { CardSheetData, RosterData } from '../../protocol';

describe('card sheet request over stdio', function () {
  this.timeout(60000);
  let c: Client;
  let fleet: string;

  before(async () => {
    // Every card file read: the other faction's (Maw Frigate) and the unit file the second case prints.
    ({ c, uri: fleet } = await fleetServer(FILES, 'fleets/vanguard.fleet.yaml', FLEET, async (r, c) => {
      const cards = await c.request<CardSheetData | null>('fabledStar/cardSheet', { uri: c.uri('cards/myr.unit.yaml') });
      return r.entries[0]!.class === 'Destroyer' && r.entries.some((e) => e.unit === 'Maw Frigate' && !!e.class) && !!cards;
    }));
  });
  after(async () => c?.stop());

  it("a fleet's cards as fielded, with its one line as a QR code; the paper as asked", async () => {
    const r = await c.request<RosterData>('fabledStar/roster', { uri: fleet });
    const s = await c.request<CardSheetData | null>('fabledStar/cardSheet', { uri: fleet, paper: 'letter' });
    assert.ok(s);
    assert.equal(s.title, 'Radiant Vanguard');
    const names = [...s.html.matchAll(/<article class="card" data-card="([^"]*)"/g)].map((m) => m[1]);
    const expected = r.entries.flatMap((e) => (e.class ? Array.from({ length: e.count }, () => [e.unit, ...e.embarked.map((x) => x.name)]).flat() : []));
    assert.deepEqual(names, expected);
    assert.equal(s.cards, expected.length);
    // Maw Frigate is a card of another faction: fielded (with its problem), so printed, as the roster counts it.
    assert.ok(names.includes('Maw Frigate'));
    assert.deepEqual(s.unknown, ['Lumen Destroyr']);
    assert.match(s.html, /<svg class="qr"/);
    assert.match(s.html, /size: letter landscape/);
    assert.equal(r.copyLink, `fabledstar:${encodeURIComponent(r.copyText)}`);
  });

  it('a unit cards file: every card in it; an unknown uri: null', async () => {
    const uri = c.uri('cards/myr.unit.yaml');
    const s = await c.request<CardSheetData | null>('fabledStar/cardSheet', { uri });
    assert.ok(s && s.cards > 0);
    assert.doesNotMatch(s.html, /<svg/);
    assert.match(s.html, /size: A4/);
    assert.equal(await c.request('fabledStar/cardSheet', { uri: c.uri('nothing.unit.yaml') }), null);
  });
});

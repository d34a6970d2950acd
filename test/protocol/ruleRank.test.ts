/**
 * Show Rule's search: the rulebook sections as the server sends them (fabledStar/ruleText, with the
 * terms each defines), ranked by the client's rankRules for what a player types. The section that
 * names or defines the word comes first, and only it carries the word in its label (VS Code lists
 * label matches first, whatever order it is given).
 */
import { strict as assert } from 'node:assert';
import { startServer, type Client } from './harness';
import { rankRules, ruleLabel } from '../../client/src/ruleRank';
import type { RuleTextEntry } from '../../protocol';

describe('Show Rule ranks the section a word names or defines first', function () {
  this.timeout(60000);
  let c: Client;
  let all: RuleTextEntry[];
  before(async () => {
    c = await startServer({ folder: false });
    all = await c.request<RuleTextEntry[]>('fabledStar/ruleText', {});
  });
  after(async () => c?.stop());

  const cases: [string, number][] = [
    ['Blast', 12],
    ['blast', 12],
    ['Energy', 12],
    ['Squad', 8],
    ['Cover', 19],
    ['Dogfighters', 4],
    ['Initiative', 14],
    ['Shields Back Online', 10],
    ['12', 12],
    ['§7', 7],
    ['Launch Bay', 6],
    ['Command Board', 21],
  ];
  for (const [query, n] of cases) {
    it(`"${query}" → §${n}`, () => {
      const ranked = rankRules(all, query);
      assert.equal(
        ranked[0]?.number,
        n,
        ranked
          .slice(0, 4)
          .map((e) => `§${e.number} ${e.title}`)
          .join(', '),
      );
      if (!/\d/.test(query)) {
        const labelled = ranked.filter((e) => ruleLabel(e, query).toLowerCase().includes(query.toLowerCase()));
        assert.equal(labelled[0]?.number, n, labelled.map((e) => ruleLabel(e, query)).join(', '));
      }
    });
  }

  it('sends each section with the terms it defines', () => {
    assert.ok(all.find((e) => e.number === 12)?.terms?.includes('Blast'));
    assert.ok(!all.find((e) => e.number === 8)?.terms?.includes('Blast'));
  });
});

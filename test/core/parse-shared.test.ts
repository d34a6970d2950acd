/**
 * What the parser's shared readers say (model/parse.ts): an empty Command Board or fleet list, and
 * an order or an ability that is neither a mapping nor a name, each with its own words, at its place.
 */
import { strict as assert } from 'node:assert';
import { parseDocument } from '../../server/src/core/model/parse';
import type { UnitDocument } from '../../server/src/core/model/types';

const messages = (uri: string, text: string) => parseDocument(uri, text)!.problems.map((p) => `${p.code} ${p.message}`);

describe('parser: shared readers', () => {
  it('says what an empty Command Board and an empty fleet list need', () => {
    assert.deepEqual(messages('file:///a.faction.yaml', ''), [
      'FS-MISSING-FIELD This Command Board is empty: give faction, doctrine, factionAbility and six commandAbilities',
    ]);
    assert.deepEqual(messages('file:///a.fleet.yaml', '# nothing\n'), ['FS-MISSING-FIELD This fleet list is empty: give name, faction, points and units']);
    const fleet = parseDocument('file:///a.fleet.yaml', '');
    assert.equal(fleet?.kind, 'fleet');
    assert.equal(fleet?.kind === 'fleet' && fleet.name.value, undefined);
  });

  it('reads orders and abilities as names or mappings, and says what else they should be', () => {
    const text = [
      'faction: F',
      'units:',
      '  - name: A',
      '    orders: [Full Burn, { name: Lock Target, range: 12 }, [x]]',
      '    abilities: [Hit & Run, { name: Aura, text: t, range: 6 }, [y]]',
      '',
    ].join('\n');
    const doc = parseDocument('file:///a.unit.yaml', text) as UnitDocument;
    const card = doc.units[0]!;
    assert.deepEqual(
      card.orders!.items.map((o) => [o.form, o.name.value, o.range?.value]),
      [
        ['string', 'Full Burn', undefined],
        ['mapping', 'Lock Target', 12],
      ],
    );
    assert.deepEqual(
      card.abilities!.items.map((a) => [a.form, a.name.value, a.text?.value, a.range?.value]),
      [
        ['string', 'Hit & Run', undefined, undefined],
        ['mapping', 'Aura', 't', 6],
      ],
    );
    const problems = doc.problems.filter((p) => p.code === 'FS-TYPE').map((p) => [p.message, text.slice(p.span.start, p.span.end)]);
    assert.deepEqual(problems, [
      ["An order is a mapping (name, difficulty, range, effect) or a known order's name, not a list", '[x]'],
      ["An ability is a mapping (name, text) or a known ability's name, not a list", '[y]'],
    ]);
  });
});

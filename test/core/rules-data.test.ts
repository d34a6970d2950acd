/** Rule tables built from other rule data (rules/data.ts): what they hold is what the rulebook's figures give. */
import assert from 'node:assert/strict';
import { WEAPON_TYPE_ABBREVIATIONS } from '../../server/src/core/rules/data';
import { normaliseWeaponType } from '../../server/src/core/model/parse';

describe('rules data: weapon type initials', () => {
  it('abbreviates each weapon type by its initial, in the types order', () => {
    assert.deepEqual(Object.entries(WEAPON_TYPE_ABBREVIATIONS), [
      ['E', 'Energy'],
      ['A', 'Auto'],
      ['P', 'Piercing'],
      ['I', 'Ion'],
      ['B', 'Blast'],
    ]);
  });

  it('reads an initial in either case, and nothing longer as one', () => {
    assert.equal(normaliseWeaponType(' p '), 'Piercing');
    assert.equal(normaliseWeaponType('B'), 'Blast');
    assert.equal(normaliseWeaponType('ion'), 'Ion');
    assert.equal(normaliseWeaponType('EA'), undefined);
    assert.equal(normaliseWeaponType('X'), undefined);
  });
});

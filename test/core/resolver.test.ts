/**
 * The one card resolver (Workspace.resolve): a name, maybe a faction, and a named policy decide which
 * card is meant when factions share names. A table of cases over a small workspace.
 */
import { strict as assert } from 'node:assert';
import type { Workspace, CardPolicy } from '../../server/src/core/workspace';
import { workspaceOf } from '../helpers';

const cards = (faction: string, ...names: string[]) =>
  `faction: ${faction}\nunits:\n` + names.map((n) => `  - name: ${n}\n    class: Frigate\n    points: 40\n`).join('');

function workspace(): Workspace {
  return workspaceOf({
    'file:///ws/a.unit.yaml': cards('Myr-Valari', 'Lance', 'Only Myr'),
    'file:///ws/b.unit.yaml': cards('Consumed', 'Lance', 'Only Consumed', 'Twice'),
    'file:///ws/c.unit.yaml': cards('Consumed', 'Twice'),
  });
}

interface Case {
  name: string;
  faction?: string;
  policy: CardPolicy;
  /** The faction of the card it resolves to (and the file, when a faction holds two), or undefined: no card. */
  expect: string | undefined;
  /** How many cards of that name exist in all (what messages name). */
  candidates?: number;
}

const CASES: Case[] = [
  // own: a fleet's entries. The faction's card only; without a faction, any.
  { name: 'Lance', faction: 'Myr-Valari', policy: 'own', expect: 'Myr-Valari', candidates: 2 },
  { name: 'lance ', faction: 'consumed', policy: 'own', expect: 'Consumed' },
  { name: 'Only Consumed', faction: 'Myr-Valari', policy: 'own', expect: undefined, candidates: 1 },
  { name: 'Only Consumed', policy: 'own', expect: 'Consumed' },
  { name: 'Nobody', faction: 'Myr-Valari', policy: 'own', expect: undefined, candidates: 0 },
  // ownFirst: navigation, hovers, a request by name. The faction's, else any.
  { name: 'Lance', faction: 'Consumed', policy: 'ownFirst', expect: 'Consumed' },
  { name: 'Only Consumed', faction: 'Myr-Valari', policy: 'ownFirst', expect: 'Consumed' },
  { name: 'Only Myr', faction: 'Unknown Faction', policy: 'ownFirst', expect: 'Myr-Valari' },
  { name: 'Lance', policy: 'ownFirst', expect: 'Myr-Valari' },
  // opponent: the reference target a card is measured against. Another faction's, else any.
  { name: 'Lance', faction: 'Myr-Valari', policy: 'opponent', expect: 'Consumed' },
  { name: 'Lance', faction: 'Consumed', policy: 'opponent', expect: 'Myr-Valari' },
  { name: 'Only Myr', faction: 'Myr-Valari', policy: 'opponent', expect: 'Myr-Valari' },
  { name: 'Lance', policy: 'opponent', expect: 'Myr-Valari' },
  // unique: the CLI's --attacker NAME. Only when one faction has it; a faction narrows it.
  { name: 'Lance', policy: 'unique', expect: undefined, candidates: 2 },
  { name: 'Lance', faction: 'Consumed', policy: 'unique', expect: 'Consumed' },
  { name: 'Twice', policy: 'unique', expect: 'Consumed', candidates: 2 },
  { name: 'Only Myr', policy: 'unique', expect: 'Myr-Valari' },
  { name: 'Nobody', policy: 'unique', expect: undefined, candidates: 0 },
];

describe('card resolver', () => {
  const ws = workspace();
  for (const c of CASES) {
    const what = `"${c.name}"${c.faction ? ` for ${c.faction}` : ''} under ${c.policy}`;
    it(`${what} resolves to ${c.expect ?? 'no card'}`, () => {
      const r = ws.resolve({ name: c.name, ...(c.faction ? { faction: c.faction } : {}) }, c.policy);
      assert.equal(r.ref?.faction, c.expect);
      if (c.expect) assert.equal(r.ref!.card.name.value!.toLowerCase(), c.name.trim().toLowerCase());
      if (c.candidates !== undefined) assert.equal(r.candidates.length, c.candidates);
      assert.equal(ws.card(c.name, c.faction, c.policy), r.ref, 'the shorthand agrees');
    });
  }

  it('gives the first card in document order when a faction holds two of a name', () => {
    assert.equal(ws.resolve({ name: 'Twice', faction: 'Consumed' }, 'own').ref?.uri, 'file:///ws/b.unit.yaml');
  });

  it('resolves nothing for an empty or missing name', () => {
    for (const policy of ['own', 'ownFirst', 'opponent', 'unique'] as const) {
      assert.equal(ws.card(undefined, 'Consumed', policy), undefined);
      assert.equal(ws.card('  ', undefined, policy), undefined);
    }
  });

  it('follows edits: a card moved to another faction resolves there', () => {
    const w = workspace();
    assert.equal(w.card('Only Myr', 'Myr-Valari', 'own')?.faction, 'Myr-Valari');
    w.set('file:///ws/a.unit.yaml', cards('Consumed', 'Lance', 'Only Myr'));
    assert.equal(w.card('Only Myr', 'Myr-Valari', 'own'), undefined);
    assert.equal(w.card('Only Myr', 'Myr-Valari', 'ownFirst')?.faction, 'Consumed');
  });
});

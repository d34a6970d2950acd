/**
 * Every kind of hover that quotes the rulebook quotes the place that says what the hover says: the
 * cited block (after the hover's rule line) has the section's or class card's heading, and it
 * holds the words the hover's figures come from. A hover of a card's points once cited §17
 * (battlefield sizes) instead of the class card that prints the cost.
 */
import { strict as assert } from 'node:assert';
import type { Workspace } from '../../server/src/core/workspace';
import { workspaceOf } from '../helpers';
import { hover } from '../../server/src/core/features/hover';
import { resolveSettings } from '../../protocol';

const U = (p: string) => `file:///cite/${p}`;
const UNITS = U('cite.unit.yaml');
const BOARD = U('cite.faction.yaml');
const FLEET = U('cite.fleet.yaml');

const FILES: Record<string, string> = {
  [UNITS]: `faction: Citers
units:
  - name: Cite Destroyer
    class: Destroyer
    points: 150
    bases: 1
    stats:
      M: 9/6
      BS: 5+
      D: 7+
      SH: 4
      AC: 6+
      HP: 5
      LD: 6/3
      CR: 7/2
      T: 3
    weapons:
      - name: Cite Lance
        type: Energy
        range: 18"
        damage: 2
        attacks: 3
      - Cite Laser — Ion, 9", 2, 4
    orders:
      - name: Attack Run
        difficulty: 2
        range: 12"
      - Full Burn
    abilities:
      - Hit & Run
  - name: Cite Cruiser
    class: Cruiser
    points: 190
    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"
    weapons: ["Gun — E, 18\\", 2, 4", "Flak — A, 6\\", 1, 4"]
    abilities:
      - Launch Bay Tier 1
  - name: Cite Escorts
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
    weapons: ["Needler — A, 9\\", 1, 3"]
    abilities: [Combined Shields, Squad Leader & Cohesion, Objective Control, Evasive Screen]
  - name: Cite Frigates
    class: Frigate
    points: 110
    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"
    weapons: ["Lance — E, 12\\", 2, 2", "Shard — A, 9\\", 1, 3"]
    abilities: [Forward Observers]
  - name: Cite Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ - - 1 7/2 - -"
    weapons: ["Darts — E, 6\\", 1, 1"]
    abilities: [Dogfighters]
  - name: Cite Bombers
    class: Bomber
    points: 75
    stats: "9/3 5+ 7+ - - 1 7/2 - -"
    weapons: ["Torp — P, 6\\", 2, 1"]
    abilities: [Precision Strike]
  - name: Cite Battleship
    class: Battleship
    points: 280
    stats: "6/3 5+ 9+ 10 4+ 10 5/4 6/3 7"
    weapons: ["Lance — E, 24\\", 3, 2", "Ion — I, 15\\", 1, 4", "Flak — A, 6\\", 1, 6"]
    orders: [Priority Target]
    abilities: [Phase Matrix, Single Base]
  - name: Cite Court
    class: Capital Ship
    points: 340
    stats: "6/3 4+ 9+ 12 4+ 12 4/5 6/4 8"
    weapons: ["Lance — E, 30\\", 3, 3", "Ion — I, 18\\", 1, 5", "Auto — A, 9\\", 1, 4"]
    orders: [Strategic Fire, Lock Target]
    abilities: [Void Harmonics]
  - name: Cite Carrier
    class: Carrier
    points: 300
    stats: "6/3 5+ 9+ 10 5+ 11 5/3 6/3 7"
    weapons: ["A — E, 18\\", 2, 2", "B — A, 6\\", 1, 5", "C — I, 12\\", 1, 3"]
    orders: [Recover Craft]
    abilities: [Launch Bays (Reserves)]
  - name: Cite Dreadnought
    class: Dreadnought
    points: 480
    stats: "6/3 4+ 10+ 20 3+ 16 4/5 5/5 10"
    weapons: ["A — E, 30\\", 4, 3", "B — I, 21\\", 2, 4", "C — B, 15\\", 2, 2", "D — A, 9\\", 1, 6"]
    orders: [Emergency Power, Brace Positions]
    abilities:
      - Boarding (CR)
      - name: Ram (T)
        text: Rams with its Tonnage.
  - name: Cite Printed
    class: Frigate
    points: 110
    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"
    weapons: ["Lance — E, 12\\", 2, 2", "Shard — A, 9\\", 1, 3"]
    abilities:
      - Forward Observers — when a friendly unit targets an enemy unit within 6" of this unit, it gains +1 BS.
  - name: Cite Oddity
    class: Cruiser
    points: 190
    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"
    weapons: ["Gun — E, 18\\", 2, 4", "Flak — A, 6\\", 1, 4"]
    abilities:
      - name: Odd Field
        text: Nothing the rulebook prints.
`,
  [BOARD]: `faction: Citers
doctrine: Standard
cp: 3
cpSources:
  - { name: Commander Burst, cp: 2 }
  - { name: First Officer Burst, cp: 1 }
factionAbility:
  name: Citation Grace
  text: Reroll one failed Dodge roll per turn.
commandAbilities:
  - { name: Ghost Signal, cost: 1, timing: Before a friendly unit moves, effect: Move 3" more. }
  - { name: B, cost: 1, timing: Any, effect: Two. }
  - { name: C, cost: 2, timing: Any, effect: Three. }
  - { name: D, cost: 2, timing: Any, effect: Four. }
  - { name: E, cost: 3, timing: Any, effect: Five. }
  - { name: F, cost: 1, timing: Any, effect: Six. }
`,
  [FLEET]: `name: Cite Fleet
faction: Citers
points: 1000
objectives: 5
units:
  - unit: Cite Cruiser
    embark:
      - Cite Wing
  - unit: Cite Destroyer
    count: 2
`,
};

const settings = resolveSettings({});

/** The hover's own text and the rulebook block it cites (after its rule line), or undefined. */
function hoverAt(ws: Workspace, uri: string, before: string, nth = 0): { head: string; cited: string | undefined } {
  const text = ws.get(uri)!.text;
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(before, i + 1);
  assert.ok(i >= 0, `"${before}" not in ${uri}`);
  const h = hover(ws.get(uri)!, ws, i + before.length, settings);
  assert.ok(h, `no hover after "${before}"`);
  const cut = h.markdown.indexOf('\n\n---\n\n');
  return cut < 0 ? { head: h.markdown, cited: undefined } : { head: h.markdown.slice(0, cut), cited: h.markdown.slice(cut + 7) };
}

/** A hover kind: where it is, the heading of the place it must cite, and what that place must say. */
interface Case {
  kind: string;
  uri: string;
  before: string;
  nth?: number;
  /** "§N Title" for a section, "Name** (Class class card)" for a class card; undefined: cites nothing. */
  cites: string | undefined;
  says?: string[];
}

const CARD = (name: string, cls: string) => `**${name}** (${cls} class card)`;

const cases: Case[] = [
  // Cards
  { kind: 'a class', uri: UNITS, before: 'class: Destr', cites: '§3 Unit Classes', says: ['Bases per unit', 'Weapon Systems by class', 'Orders by class'] },
  { kind: "a card's points", uri: UNITS, before: 'points: 15', cites: CARD('Destroyer', 'Destroyer'), says: ['145 pts'] },
  { kind: 'the points of a Capital Ship', uri: UNITS, before: 'points: 34', cites: CARD('Radiant Court', 'Capital Ship'), says: ['340 pts'] },
  { kind: 'bases', uri: UNITS, before: 'bases: ', cites: '§3 Unit Classes', says: ['Bases per unit: Fighter 4'] },
  { kind: 'a stat', uri: UNITS, before: 'BS: 5', cites: '§1 Core Statistics', says: ['Ballistic Skill best 3+, worst 10+'] },
  { kind: 'a stat in a stat line', uri: UNITS, before: 'stats: "6/6 5', cites: '§1 Core Statistics', says: ['Stat limits'] },
  { kind: 'the stats key', uri: UNITS, before: '    stat', cites: '§1 Core Statistics', says: ['M · BS · D · SH · AC · HP · LD · CR · T'] },
  { kind: 'the weapons key', uri: UNITS, before: '    weap', cites: '§3 Unit Classes', says: ['Weapon Systems by class: Fighter 1'] },
  { kind: 'a weapon type', uri: UNITS, before: 'type: Ener', cites: '§12 Weapons', says: ['E — Energy: when rolling one or more Critical Hits'] },
  { kind: 'a weapon type in a line', uri: UNITS, before: 'Cite Laser — I', cites: '§12 Weapons', says: ['I — Ion: remove 2 SH per hit'] },
  { kind: 'a weapon range', uri: UNITS, before: 'range: 1', cites: '§12 Weapons', says: ['Standard range bands are the only legal ranges'] },
  { kind: 'a weapon damage', uri: UNITS, before: 'damage: ', cites: '§12 Weapons', says: ['Damage is rated 1 to 5'] },
  { kind: 'a weapon attacks', uri: UNITS, before: 'attacks: ', cites: '§12 Weapons', says: ['Type, Range, Dmg, Attacks'] },
  { kind: 'a weapon as a whole', uri: UNITS, before: '- Cite L', cites: '§12 Weapons', says: ['Weapon profiles are written as'] },
  { kind: 'the orders key', uri: UNITS, before: '    orde', cites: '§16 Leadership', says: ['Orders by class: Destroyer 1'] },
  { kind: 'an order of a class card', uri: UNITS, before: 'name: Attack R', cites: CARD('Destroyer', 'Destroyer'), says: ['Attack Run', 'LD Difficulty 2'] },
  { kind: "an order of section 16's examples", uri: UNITS, before: '- Full B', cites: '§16 Leadership', says: ['Full Burn: +3"'] },
  { kind: 'an order printed on the Battleship card', uri: UNITS, before: '[Priority T', cites: CARD('Battleship', 'Battleship'), says: ['Priority Target'] },
  { kind: 'an order printed on the Radiant Court', uri: UNITS, before: '[Strategic F', cites: CARD('Radiant Court', 'Capital Ship'), says: ['Strategic Fire'] },
  { kind: 'Recover Craft', uri: UNITS, before: '[Recover C', cites: CARD('Carrier', 'Carrier'), says: ['Recover Craft (Difficulty 3)'] },
  { kind: 'an order difficulty', uri: UNITS, before: 'difficulty: ', cites: '§16 Leadership', says: ['With LD 5/4 you roll 4 dice'] },
  { kind: 'an order range', uri: UNITS, before: '        range: 1', nth: 1, cites: '§12 Weapons', says: ['applying to weapons, abilities, Orders'] },
  { kind: 'the abilities key', uri: UNITS, before: '    abili', cites: '§3 Unit Classes', says: ['Abilities by class: all classes 1'] },
  { kind: 'Dogfighters', uri: UNITS, before: '[Dogf', cites: '§4 Dogfighters', says: ['does not use the Fighter', 'maximum range of 6"'] },
  { kind: 'Precision Strike', uri: UNITS, before: '[Precision S', cites: '§5 Precision Strike', says: ['at no cost', '50mm or larger'] },
  {
    kind: 'Squad Leader & Cohesion',
    uri: UNITS,
    before: 'Squad Leader & C',
    cites: '§8 Squad Leaders',
    says: ['Applies to Fighters, Bombers, Escorts and Frigates'],
  },
  {
    kind: 'Combined Shields',
    uri: UNITS,
    before: '[Combined S',
    cites: '§10 Shield Recharge',
    says: ['Combined Shield pool', 'current number of surviving bases'],
  },
  { kind: 'Objective Control', uri: UNITS, before: 'Objective C', cites: '§20 Objectives', says: ['must have LD and Tonnage'] },
  { kind: 'Single Base, on a class whose card prints it', uri: UNITS, before: 'Single B', cites: CARD('Battleship', 'Battleship'), says: ['Single Base'] },
  { kind: 'a Launch Bay Tier', uri: UNITS, before: '- Launch Bay T', cites: '§6 Launch Bays', says: ['1 Fighter unit embarked per Tier'] },
  {
    kind: 'Launch Bays (Reserves)',
    uri: UNITS,
    before: '[Launch Bays (R',
    cites: CARD('Carrier', 'Carrier'),
    says: ['up to 3 squadrons of Fighters, Bombers'],
  },
  { kind: 'Hit & Run', uri: UNITS, before: '- Hit & R', cites: CARD('Destroyer', 'Destroyer'), says: ['Hit & Run'] },
  { kind: 'Evasive Screen', uri: UNITS, before: 'Evasive S', cites: CARD('Escort Squadron', 'Escort'), says: ['Evasive Screen'] },
  { kind: 'Forward Observers', uri: UNITS, before: '[Forward O', cites: CARD('Frigate Squadron', 'Frigate'), says: ['Forward Observers'] },
  {
    kind: 'an ability written as its class card prints it, "Name — text"',
    uri: UNITS,
    before: '- Forward O',
    cites: CARD('Frigate Squadron', 'Frigate'),
    says: ['Forward Observers'],
  },
  { kind: 'Phase Matrix', uri: UNITS, before: '[Phase M', cites: CARD('Battleship', 'Battleship'), says: ['Phase Matrix'] },
  { kind: 'Void Harmonics', uri: UNITS, before: '[Void H', cites: CARD('Radiant Court', 'Capital Ship'), says: ['Void Harmonics'] },
  { kind: 'Boarding (CR)', uri: UNITS, before: '- Boarding (', cites: '§13 Boarding', says: ['Boarding requires both units to have CR'] },
  { kind: 'Ram (T)', uri: UNITS, before: 'name: Ram (', cites: '§13 Boarding', says: ['The ramming unit rolls dice equal to its Tonnage'] },
  { kind: 'a homebrew ability', uri: UNITS, before: 'name: Odd F', cites: undefined },
  // Fleets
  { kind: "a fleet's points", uri: FLEET, before: 'points: 10', cites: '§17 Deployment', says: ['Standard (1000) 4'] },
  { kind: "a fleet's objectives", uri: FLEET, before: 'objectives: ', cites: '§20 Objectives', says: ['1000 points — 5–8'] },
  { kind: 'embark', uri: FLEET, before: '    emb', cites: '§6 Launch Bays', says: ['1 Fighter unit embarked per Tier'] },
  // The Command Board
  { kind: 'the doctrine', uri: BOARD, before: 'doctrine: St', cites: '§21 The Command Board', says: ['Light 2 CP, Standard 3 CP, Elite 4 CP'] },
  { kind: 'cp', uri: BOARD, before: 'cp: ', cites: '§21 The Command Board', says: ['Light 2 CP, Standard 3 CP, Elite 4 CP'] },
  { kind: 'cpSources', uri: BOARD, before: 'cpSour', cites: '§21 The Command Board', says: ["CP generation follows the faction's Command Doctrine"] },
  { kind: 'the faction ability', uri: BOARD, before: 'name: Citation G', cites: '§21 The Command Board', says: ['The Faction Ability is always active'] },
  { kind: 'the factionAbility key', uri: BOARD, before: 'factionAbil', cites: '§21 The Command Board', says: ['1 Faction Ability'] },
  { kind: 'the commandAbilities key', uri: BOARD, before: 'commandAbil', cites: '§21 The Command Board', says: ['6 Command Abilities'] },
  {
    kind: 'a command ability',
    uri: BOARD,
    before: 'name: Ghost S',
    cites: '§21 The Command Board',
    says: ['Command Abilities are purchased with CP', 'lost at the end of the round'],
  },
];

/** Markdown escapes punctuation in rule text; compare the words as written. */
const plain = (md: string) => md.replace(/\\(.)/g, '$1');

describe('hover citations: each hover quotes the place that says what it says', () => {
  const ws = workspaceOf(FILES);

  for (const c of cases) {
    it(c.kind, () => {
      const { head, cited } = hoverAt(ws, c.uri, c.before, c.nth);
      if (c.cites === undefined) {
        assert.equal(cited, undefined, `cites something:\n${cited}`);
        return;
      }
      assert.ok(cited, `cites nothing; the hover:\n${head}`);
      const text = plain(cited);
      const firstLine = text.split('\n')[0]!;
      assert.ok(firstLine.startsWith(c.cites.startsWith('§') ? `**${c.cites}` : c.cites), `cites "${firstLine}", not ${c.cites}`);
      for (const s of c.says ?? []) assert.ok(text.includes(s), `the cited text does not say "${s}":\n${text}`);
    });
  }

  it("a card's points never cite the battlefield sizes", () => {
    const { cited } = hoverAt(ws, UNITS, 'points: 15');
    assert.ok(cited && !cited.includes('§17'), cited);
  });

  it('every cited block starts with a section heading or a class card', () => {
    for (const c of cases) {
      const { cited } = hoverAt(ws, c.uri, c.before, c.nth);
      if (cited) assert.match(plain(cited).split('\n')[0]!, /^\*\*(§\d+ .+|.+\*\* \(.+ class card\))/, c.kind);
    }
  });
});

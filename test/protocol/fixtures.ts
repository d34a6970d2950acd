/**
 * A small workspace for the language-server tests (core and protocol): two factions' cards, a
 * Command Board, a card file with one mistake of each fixable kind, and a fleet list. Written here,
 * not taken from examples/, so that the tests say what they rely on.
 */
export const MYR_UNITS = `faction: Myr-Valari
units:
  - name: Lumen Destroyer
    class: Destroyer
    points: 145
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
      - name: Lumen Lance
        type: Energy
        range: 18"
        damage: 2
        attacks: 3
      - Pulse Laser — Ion, 9", 2, 4
    orders:
      - name: Attack Run
        difficulty: 2
        effect: Target friendly unit gains +1 BS for one weapon system until the end of the round.
    abilities:
      - Hit & Run
  - name: Lumen Cruiser
    class: Cruiser
    points: 190
    stats: "9/6 5+ 7+ 5 5+ 7 6/3 7/3 4"
    weapons:
      - Sunspear — Piercing, 24", 3, 2
      - Halo Battery — Auto, 12", 1, 6
    orders:
      - Full Burn
    abilities:
      - Launch Bay Tier 1
  - name: Veilwing Fighter Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ — — 1 7/2 — —"
    weapons:
      - Veil Darts — Energy, 6", 1, 1
    abilities:
      - Dogfighters
  - name: Lumen Bomber Wing
    class: Bomber
    points: 75
    stats: "9/3 5+ 7+ — — 1 7/2 — —"
    weapons:
      - Lumen Torpedo — Piercing, 6", 2, 1
  - name: Shardlight Escort
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 — 1"
    weapons:
      - Shard Needler — Auto, 9", 1, 3
    abilities:
      - Combined Shields
  - name: "<img src=x onerror=alert(1)> *Shade* & Co"
    class: Frigate
    points: 110
    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"
    weapons:
      - Prism Lance — Energy, 12", 2, 2
      - Prism Shard — Auto, 9", 1, 3
`;

export const MYR_BROKEN = `faction: Myr-Valari
units:
  - name: Broken Frigate
    class: Frigate
    points: 110
    bases: 3
    stats:
      M: 9/6
      BS: 2+
      D: 7+
      SH: 3
      AC: 7+
      HP: 3
      LD: 6/2
      CR: 8/2
    weapons:
      - name: Bad Gun
        type: Energy
        range: 13.5"
        damage: 2
        attacks: 2
      - Other Gun — Auto, 12", 1, 2
    abilities:
      - Dogfighters
`;

export const MYR_BOARD = `faction: Myr-Valari
doctrine: Standard
cp: 4
factionAbility:
  name: Veilstride Grace
  text: Reroll one failed Dodge roll per turn.
commandAbilities:
  - { name: Ghost Signal, cost: 1, timing: Before a friendly unit moves, effect: +3" Movement for that Move. }
  - { name: Veil Lure, cost: 1, timing: Start of an enemy activation, effect: Target friendly unit is harder to hit. }
  - { name: Starlit Feint, cost: 1, timing: After a Dodge roll, effect: Reroll one failed Dodge roll. }
  - { name: Whisper Step, cost: 2, timing: Any time, effect: Target unit with T 5 or less moves 3". }
  - { name: Luminous Rhythm, cost: 2, timing: Start of a round, effect: Target unit's Dodge becomes 8+. }
  - { name: Unseen Cascade, cost: 3, timing: After a friendly activation, effect: Activate another friendly unit. }
`;

export const CONSUMED_UNITS = `faction: Consumed
units:
  - name: Maw Frigate
    class: Frigate
    points: 110
    stats: "9/3 6+ 8+ 2 7+ 4 7/2 6/3 2"
    weapons:
      - Maw Ripper — Piercing, 6", 2, 3
      - Bile Spray — Blast, 9", 1, 2
    abilities:
      - Combined Shields
`;

export const FLEET = `name: Radiant Vanguard
faction: Myr-Valari
points: 1000
units:
  - unit: Lumen Destroyer
    count: 2
  - unit: Lumen Destroyr
  - unit: Lumen Cruiser
    embark:
      - Veilwing Fighter Wing
  - unit: Maw Frigate
`;

export const FILES: Record<string, string> = {
  'cards/myr.unit.yaml': MYR_UNITS,
  'cards/broken.unit.yaml': MYR_BROKEN,
  'cards/myr.faction.yaml': MYR_BOARD,
  'consumed/consumed.unit.yaml': CONSUMED_UNITS,
  'fleets/vanguard.fleet.yaml': FLEET,
};

/** The 0-based line of the first line containing `needle`. */
export function lineOf(text: string, needle: string, nth = 0): number {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle)) {
      if (seen === nth) return i;
      seen++;
    }
  }
  throw new Error(`"${needle}" not found`);
}

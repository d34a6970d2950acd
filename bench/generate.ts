/** Generates the benchmark inputs (deterministically, so runs compare). */
import { CLASSES, CLASS_NAMES, WEAPON_TYPES, RANGE_BANDS } from '../server/src/core/rules/data';

/** One unit file of at least `lines` lines: many valid cards in both stat and weapon forms. */
export function bigUnitFile(lines: number, faction = 'Bench'): string {
  const out = [`faction: ${faction}`, 'units:'];
  for (let i = 0; out.length < lines; i++) out.push(...card(i, faction));
  return out.join('\n') + '\n';
}

export function card(i: number, _faction: string): string[] {
  const cls = CLASS_NAMES[4 + (i % 6)]!; // Destroyer .. Dreadnought: cards with orders and several weapons
  const row = CLASSES[cls];
  const lines = [`  - name: Bench ${cls} ${i}`, `    class: ${cls}`, `    points: ${row.points}`];
  if (i % 2 === 0) {
    lines.push(
      '    stats:',
      '      M: 9/6',
      '      BS: 5+',
      '      D: 7+',
      '      SH: 4',
      '      AC: 6+',
      '      HP: 5',
      '      LD: 6/3',
      '      CR: 7/2',
      '      T: 3',
    );
  } else {
    lines.push('    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"');
  }
  lines.push('    weapons:');
  for (let w = 0; w < row.weapons; w++) {
    const type = WEAPON_TYPES[(i + w) % WEAPON_TYPES.length];
    const range = RANGE_BANDS[(i + w * 3) % RANGE_BANDS.length];
    if (w % 2 === 0)
      lines.push(`      - name: Gun ${w}`, `        type: ${type}`, `        range: ${range}"`, `        damage: ${1 + (w % 5)}`, `        attacks: ${2 + w}`);
    else lines.push(`      - Battery ${w} — ${type}, ${range}", ${1 + (w % 5)}, ${3 + w}`);
  }
  lines.push(
    '    orders:',
    '      - name: Attack Run',
    '        difficulty: 2',
    '        effect: Target friendly unit within 12" gains +1 BS for one weapon system until the end of the round.',
  );
  lines.push('    abilities:', '      - name: Hit & Run', '        text: This unit may Move 6" after performing a Fire action.');
  return lines;
}

/** A workspace of `cards` cards in files of 20, and `fleets` fleets that use them. */
export function bigWorkspace(cards: number, fleets: number): Map<string, string> {
  const files = new Map<string, string>();
  const names: { name: string; points: number }[] = [];
  for (let f = 0; f * 20 < cards; f++) {
    const out = ['faction: Bench', 'units:'];
    for (let i = f * 20; i < Math.min(cards, f * 20 + 20); i++) {
      out.push(...card(i, 'Bench'));
      const cls = CLASS_NAMES[4 + (i % 6)]!;
      names.push({ name: `Bench ${cls} ${i}`, points: CLASSES[cls].points });
    }
    files.set(`file:///bench/cards/cards-${f}.unit.yaml`, out.join('\n') + '\n');
  }
  for (let f = 0; f < fleets; f++) {
    const out = [`name: Bench Fleet ${f}`, 'faction: Bench', 'points: 2000', 'objectives: 10', 'units:'];
    for (let e = 0; e < 8; e++) {
      const n = names[(f * 7 + e * 13) % names.length]!;
      out.push(`  - unit: ${n.name}`);
      if (e % 3 === 0) out.push('    count: 2');
    }
    files.set(`file:///bench/fleets/fleet-${f}.fleet.yaml`, out.join('\n') + '\n');
  }
  return files;
}

/**
 * One card against the field (`sim --vs-field`) at 1,000 cards in the workspace: the example Lumen
 * Destroyer at 9" fires at every card (and every card fires at it), each row one exact Fire action
 * and the exact shots-to-kill distribution, set up and run as the CLI does (service.ts
 * `prepareVsField`, then `vsField`). The goal: an answer within 2 s.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../server/src/core/workspace';
import { prepareVsField, vsField } from '../server/src/core/service';
import { CLASSES, CLASS_NAMES, RANGE_BANDS, WEAPON_TYPES } from '../server/src/core/rules/data';
import { EXAMPLES, load, median, type Row } from './util';

const CARDS = 1000;

/**
 * `n` valid cards of every class, their stats and weapons varied card by card (a field of copies
 * would be no test: identical profiles could share their figures), in files of 25.
 */
function variedField(n: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let f = 0; f * 25 < n; f++) {
    const out = ['faction: Field', 'units:'];
    for (let i = f * 25; i < Math.min(n, f * 25 + 25); i++) {
      const cls = CLASS_NAMES[i % CLASS_NAMES.length]!;
      const row = CLASSES[cls];
      const small = cls === 'Fighter' || cls === 'Bomber';
      const stats = `9/6 ${3 + (i % 6)}+ ${5 + (i % 5)}+ ${(i * 7) % 13} ${4 + ((i * 3) % 6)}+ ${1 + ((i * 5) % (small ? 3 : 14))} 6/3 7/2 ${small ? '-' : 3}`;
      out.push(`  - name: Field ${cls} ${i}`, `    class: ${cls}`, `    points: ${row.points + (i % 7) * 5}`, `    stats: "${stats}"`, '    weapons:');
      for (let w = 0; w < row.weapons; w++) {
        const type = WEAPON_TYPES[(i + w) % WEAPON_TYPES.length];
        const range = small ? RANGE_BANDS[(i + w) % 2] : RANGE_BANDS[(i + w * 3) % RANGE_BANDS.length];
        out.push(`      - Gun ${w} — ${type}, ${range}", ${1 + ((i + w) % 5)}, ${2 + ((i * 3 + w) % 5)}`);
      }
    }
    files.set(`file:///bench/field/field-${f}.unit.yaml`, out.join('\n') + '\n');
  }
  return files;
}

export async function benchVsField(): Promise<Row[]> {
  const ws = new Workspace();
  const own = path.join(EXAMPLES, 'myr-valari', 'myr-valari.unit.yaml');
  ws.set(`file://${own}`, fs.readFileSync(own, 'utf8'));
  for (const [uri, text] of variedField(CARDS - ws.allCards().length)) ws.set(uri, text);
  const ref = ws.findCards('Lumen Destroyer')[0]!;
  const rows: Row[] = [];
  for (const side of ['attacker', 'defender'] as const) {
    const times: number[] = [];
    const cpu: number[] = [];
    let cards = 0;
    let slowest = '';
    let left = 0;
    for (let run = 0; run < 3; run++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const prepared = prepareVsField(ws, ref, side, 9);
      if ('refused' in prepared) throw new Error(prepared.refused.join(' '));
      const r = vsField(prepared.input);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      cards = r.field.length;
      left = r.left.length;
      const top = r.field[0]!;
      slowest = `top row ${top.defender ?? top.attacker}: ${top.pointsPerAction?.toFixed(2)} points/action`;
    }
    rows.push({
      name: `sim --${side} "Lumen Destroyer" --vs-field --range 9, ${cards + left} cards (${cards} rows: exact volley + shots to kill)`,
      medianMs: median(times),
      goal: '< 2000 ms',
      note: `cpu ${median(cpu).toFixed(0)} ms; ${slowest}; first run ${times[0]!.toFixed(0)} ms; ${load()}`,
    });
  }
  return rows;
}

/**
 * The roster benchmark: the roster of a fleet of 500 entries (the most a fleet list is read for),
 * built, rendered as printable HTML, and answered as the Fleet view's data, over the examples' cards.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../server/src/core/workspace';
import type { FleetDocument } from '../server/src/core/model/types';
import { buildRoster } from '../server/src/core/roster/model';
import { renderRoster } from '../server/src/core/roster/render';
import { createFabledService } from '../server/src/core/service';
import { rosterData } from '../server/src/lsp/roster';
import { median, type Row } from './util';

function time(runs: number, f: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function benchRoster(): Promise<Row[]> {
  const ws = new Workspace();
  for (const f of ['myr-valari/myr-valari.unit.yaml', 'myr-valari/myr-valari.faction.yaml'])
    ws.set(`file:///bench/${f}`, fs.readFileSync(path.join(process.cwd(), 'examples', f), 'utf8'));
  const names = ['Lumen Cruiser', 'Shardlight Escort', 'Dawnhold Carrier', 'Radiant Court', 'Veilwing Fighter Wing'];
  const units = Array.from(
    { length: 500 },
    (_, i) => `  - unit: ${names[i % 5]}\n    count: 2\n${i % 5 === 2 ? '    embark: [Veilwing Fighter Wing, Lumen Bomber Wing]\n' : ''}`,
  );
  const doc = ws.set('file:///bench/big.fleet.yaml', `name: Big\nfaction: Myr-Valari\npoints: 2000\nunits:\n${units.join('')}`) as FleetDocument;
  const build = time(7, () => buildRoster(doc, ws));
  const roster = buildRoster(doc, ws);
  const html = time(7, () => renderRoster(roster, 'html'));
  const view = time(7, () => rosterData(createFabledService({ workspace: ws }), doc, () => undefined));
  return [
    {
      name: `build the roster of a ${roster.entries.length}-entry fleet (checks included)`,
      medianMs: median(build),
      goal: '< 100 ms',
      note: `first run ${build[0]!.toFixed(1)} ms`,
    },
    { name: `render it as printable HTML (${(renderRoster(roster, 'html').length / 1024).toFixed(0)} KB)`, medianMs: median(html), goal: '< 50 ms' },
    { name: "the Fleet view's answer (fabledStar/roster: roster, choices, ranges)", medianMs: median(view), goal: '< 150 ms' },
  ];
}

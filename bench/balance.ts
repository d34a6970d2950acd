/**
 * The points estimate benchmark: the points estimate of 2,000 homebrew cards, cold (every memo empty), and
 * what an edit costs once the memo is warm. The cards are deterministic variants of the bundled
 * example cards (one to three stats or weapons changed, a homebrew cost), as a designer's
 * workspace would hold them; a second run has 2,000 cards at standard points, so the field is the
 * workspace's own (capped) rather than the bundled one.
 */
import { CLASSES, CLASS_NAMES, WEAPON_TYPES } from '../server/src/core/rules/data';
import type { UnitClass } from '../server/src/core/rules/data';
import { Workspace } from '../server/src/core/workspace';
import { bundledCards, clearEstimateMemo, estimateCard, fieldFor, newEstimates } from '../server/src/core/balance/index';
import type { CardLike } from '../server/src/core/balance/index';
import { profileFromCard } from '../server/src/core/sim/profile';
import { median, type Row } from './util';
import { bundledBattleField } from '../server/src/core/balance/fitted';
import { playInProcess, priceCards } from '../server/src/core/balance/battles';
import { mulberry32 } from '../scripts/seeded';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const tn = (n: number | undefined) => (n === undefined ? '-' : `${n}+`);

/** `count` homebrew cards, 20 to a file: each a bundled card with a few changes. */
export function homebrewWorkspace(count: number, standardPoints = false, seed = 13): Workspace {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const bases = bundledCards()
    .map((c) => ({ card: c.card, profile: profileFromCard(c.card).profile! }))
    .filter((b) => b.profile);
  const ws = new Workspace();
  let lines: string[] = [];
  let file = 0;
  for (let i = 0; i < count; i++) {
    const b = pick(bases);
    const p = { ...b.profile, weapons: b.profile.weapons.map((w) => ({ ...w })) };
    const edits = 1 + Math.floor(r() * 3);
    for (let e = 0; e < edits; e++) {
      const w = p.weapons.length ? pick(p.weapons) : undefined;
      switch (Math.floor(r() * 8)) {
        case 0:
          p.bs = clamp(p.bs + (r() < 0.5 ? -1 : 1), 3, 10);
          break;
        case 1:
          p.dodge = r() < 0.2 ? undefined : clamp((p.dodge ?? 10) + (r() < 0.5 ? -1 : 1), 3, 10);
          break;
        case 2:
          p.armour = r() < 0.2 ? undefined : clamp((p.armour ?? 10) + (r() < 0.5 ? -1 : 1), 3, 10);
          break;
        case 3:
          p.sh = clamp((p.sh ?? 0) + Math.floor(r() * 5) - 2, 0, 20);
          break;
        case 4:
          p.hp = clamp(p.hp + Math.floor(r() * 5) - 2, 1, 20);
          break;
        case 5:
          if (w) w.attacks = clamp(w.attacks + Math.floor(r() * 5) - 2, 1, 10);
          break;
        case 6:
          if (w) w.damage = clamp(w.damage + (r() < 0.5 ? -1 : 1), 1, 5);
          break;
        case 7:
          if (w) w.type = pick(WEAPON_TYPES);
          break;
      }
    }
    const cls = p.class as UnitClass;
    const points = standardPoints ? CLASSES[cls].points : Math.round(CLASSES[cls].points * (0.7 + r() * 0.6));
    lines.push(
      `  - name: Homebrew ${i}`,
      `    class: ${cls}`,
      `    points: ${points}`,
      `    stats: "6/6 ${p.bs}+ ${tn(p.dodge)} ${p.sh ?? '-'} ${tn(p.armour)} ${p.hp} 6/3 7/2 3"`,
      '    weapons:',
      ...p.weapons.map((w) => `      - ${w.name} — ${w.type}, ${w.range}", ${w.damage}, ${w.attacks}`),
    );
    if ((i + 1) % 20 === 0 || i === count - 1) {
      ws.set(`file:///bench/homebrew/h${file++}.unit.yaml`, ['faction: Homebrew', 'units:', ...lines, ''].join('\n'));
      lines = [];
    }
  }
  return ws;
}

/** Wall time and this process's CPU time (the machines are shared: under load wall time grows, CPU time stays). */
function estimateAll(cards: readonly CardLike[]): { estimated: number; ms: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const field = fieldFor(cards, estimates);
  let estimated = 0;
  for (const c of cards) if (estimateCard(c.card, c.faction, field).estimate !== undefined) estimated++;
  const c = process.cpuUsage(c0);
  return { estimated, ms: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

export async function benchBalance(): Promise<Row[]> {
  const rows: Row[] = [];
  void CLASS_NAMES;
  const ws = homebrewWorkspace(2000);
  const cards = ws.allCards();
  // Cold: nothing memoized and this code never run before in this process.
  clearEstimateMemo(estimates);
  const first = estimateAll(cards);
  const computed = estimates.volleys.stats.computed;
  const again: number[] = [];
  const againCpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    clearEstimateMemo(estimates);
    const r = estimateAll(cards);
    again.push(r.ms);
    againCpu.push(r.cpu);
  }
  rows.push({
    name: `points estimate: 2,000 homebrew cards against the bundled field, cold (first run in the process)`,
    medianMs: first.ms,
    goal: '< 1000 ms',
    note: `cpu ${first.cpu.toFixed(0)} ms; ${first.estimated} estimated, ${computed.toLocaleString('en-US')} card pairs computed; memo emptied again: median ${median(again).toFixed(0)} ms, cpu ${median(againCpu).toFixed(0)} ms`,
  });

  // Warm: one card's weapon edited, as the language server sees a keystroke.
  const uri = ws.uris()[0]!;
  const text = ws.get(uri)!.text;
  const edits: number[] = [];
  const editsCpu: number[] = [];
  for (let i = 0; i < 9; i++) {
    ws.set(
      uri,
      text.replace(/(— \w+, \d+", \d+, )(\d+)/, (_, a: string) => `${a}${11 + i}`),
    );
    const r = estimateAll(ws.allCards());
    edits.push(r.ms);
    editsCpu.push(r.cpu);
  }
  rows.push({
    name: 'points estimate: the same 2,000 cards again after one weapon edit (memo warm)',
    medianMs: median(edits),
    goal: '< 100 ms',
    note: `cpu ${median(editsCpu).toFixed(1)} ms`,
  });

  const std = homebrewWorkspace(2000, true, 7).allCards();
  clearEstimateMemo(estimates);
  const own = estimateAll(std);
  const field = fieldFor(std, estimates);
  rows.push({
    name: `points estimate: 2,000 cards at standard points, field from the workspace (${field.members.length} of ${field.available}), cold`,
    medianMs: own.ms,
    goal: '< 1000 ms',
    note: `cpu ${own.cpu.toFixed(0)} ms; leave-one-out spread of that field ${field.spreadPct.toFixed(1)}%`,
  });

  // Points from battles: balance --battles on the 20 bundled cards (in process, one thread), as the CLI runs it,
  // each battle stopped when sure (BATTLE_PRICE.sure); then every battle to its most trials, the way before.
  const battleField = bundledBattleField();
  const priced = async (sure: undefined | null) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const prices = await priceCards(battleField.cards, battleField, playInProcess(), sure === null ? { sure: null } : {});
    const cpu = process.cpuUsage(c0);
    return { prices, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, trials: prices.reduce((t, p) => t + p.trials, 0) };
  };
  const sure = await priced(undefined);
  const all = await priced(null);
  const gaps = sure.prices.map((p, i) => ({ pts: Math.abs((p.price ?? 0) - (all.prices[i]!.price ?? 0)), of: all.prices[i]!.price ?? 1 }));
  const gap = Math.max(...gaps.map((g) => g.pts));
  const gapPct = Math.max(...gaps.map((g) => (100 * g.pts) / g.of));
  rows.push(
    {
      name: `balance --battles: battle prices of the ${battleField.cards.length} bundled cards, one thread, each battle until sure`,
      medianMs: sure.ms,
      goal: '< 120000 ms on 2 cores',
      note: `cpu ${sure.cpuMs.toFixed(0)} ms; ${sure.trials.toLocaleString('en-US')} trials; every price within ${gap.toFixed(1)} pts (${gapPct.toFixed(2)}%) of every battle's most trials`,
    },
    {
      name: '... every battle its most trials (400), the same run',
      medianMs: all.ms,
      goal: 'reference',
      note: `cpu ${all.cpuMs.toFixed(0)} ms; ${all.trials.toLocaleString('en-US')} trials; until sure ${(sure.cpuMs / all.cpuMs).toFixed(2)}x the CPU, ${(sure.trials / all.trials).toFixed(2)}x the trials`,
    },
  );
  return rows;
}

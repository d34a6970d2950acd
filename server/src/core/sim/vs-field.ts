/**
 * One card against the field (FORMATS.md, `sim --vs-field`): for every card of the field, the
 * figures of `sim` for that pair at the range (one Fire action's expected hull damage and kill
 * chance, and shots to kill), and the points it destroys per Fire action per 100 points of the one
 * firing. Each row is computed by the very functions `sim` uses (`simulateVolley`, `shotsToKill`)
 * with the same options, so that a row and `sim --attacker X --defender Y --range N` agree to the
 * last digit. Pure: profiles in, rows out.
 */
import type { ShotsToKill, UnitProfile } from './types';
import { simulateVolley } from './volley';
import { shotsToKill } from './shots-to-kill';
import { textTable } from './text-table';

/** A card of the field (or the card itself) as plain data: what the rows show and the profile the engine reads. */
export interface FieldCard {
  name: string;
  faction: string;
  class: string;
  points?: number;
  profile: UnitProfile;
}

/** The card against the field, checked and ready to run (plain data: it may cross to a worker thread). */
export interface VsFieldInput {
  /** Which side the card takes: `attacker` fires at each card of the field, `defender` is fired at by each. */
  side: 'attacker' | 'defender';
  card: FieldCard;
  field: FieldCard[];
  /** Inches; undefined: every weapon fires (as `sim` without --range). */
  range?: number;
  /** Where the field came from: the cards given (or the workspace's), or the bundled examples. */
  source: 'cards' | 'examples';
  /** Cards of the cards given that are not in the field, and why (an error, or nothing the simulator can run). */
  left: { name: string; faction: string; reason: string }[];
}

/** One row: the other card, and the figures of the pair (attacker at defender). */
export interface FieldRow {
  /** The other card's name: the defender (side `attacker`) or the attacker (side `defender`). */
  attacker?: string;
  defender?: string;
  faction: string;
  class: string;
  points: number | null;
  expectedHullDamage: number;
  killProbability: number;
  shotsToKill: ShotsToKill;
  /** The defender's points destroyed per Fire action per 100 points of the attacker (null without both points). */
  pointsPerAction: number | null;
  /** Set when the volley was sampled (absurd attack counts), saying so. */
  note?: string;
}

export interface VsFieldResult {
  attacker?: string;
  defender?: string;
  range: number | null;
  /** The rows, highest `pointsPerAction` first. */
  field: FieldRow[];
  source: 'cards' | 'examples';
  left: VsFieldInput['left'];
}

/** Expected bases lost x points per base, per 100 points of the attacker. */
function pointsPerAction(expectedBases: number, defender: FieldCard, attacker: FieldCard): number | null {
  if (defender.points === undefined || attacker.points === undefined || attacker.points <= 0) return null;
  const bases = Math.max(1, defender.profile.bases);
  return (expectedBases * (defender.points / bases) * 100) / attacker.points;
}

/** The rows of one card against the field. */
export function vsField(input: VsFieldInput): VsFieldResult {
  const opts = input.range !== undefined ? { range: input.range } : {};
  const rows: FieldRow[] = input.field.map((other) => {
    const [att, def] = input.side === 'attacker' ? [input.card, other] : [other, input.card];
    const v = simulateVolley(att.profile, def.profile, opts);
    return {
      ...(input.side === 'attacker' ? { defender: other.name } : { attacker: other.name }),
      faction: other.faction,
      class: other.class,
      points: other.points ?? null,
      expectedHullDamage: v.expectedHullDamage,
      killProbability: v.killProbability,
      shotsToKill: shotsToKill(att.profile, def.profile, opts),
      pointsPerAction: pointsPerAction(v.expectedBasesDestroyed, def, att),
      ...(v.note ? { note: v.note } : {}),
    };
  });
  const nameOf = (r: FieldRow) => r.defender ?? r.attacker ?? '';
  rows.sort(
    (a, b) =>
      (b.pointsPerAction ?? -1) - (a.pointsPerAction ?? -1) ||
      b.killProbability - a.killProbability ||
      a.faction.localeCompare(b.faction) ||
      nameOf(a).localeCompare(nameOf(b)),
  );
  return {
    ...(input.side === 'attacker' ? { attacker: input.card.name } : { defender: input.card.name }),
    range: input.range ?? null,
    field: rows,
    source: input.source,
    left: input.left,
  };
}

const pct = (p: number) => (p > 0 && p < 0.0005 ? '<0.1%' : `${(100 * p).toFixed(1)}%`);

/** The rows as a readable table (the CLI's text; names printed as they are: a terminal reads no HTML). */
export function renderVsField(r: VsFieldResult): string {
  const attacking = r.attacker !== undefined;
  const where = r.range === null ? 'at any range (every weapon fires)' : `at ${r.range}"`;
  const from = r.source === 'examples' ? 'the bundled example cards' : 'the cards given';
  const out = [
    attacking ? `${r.attacker} fires at each card of the field ${where}` : `Each card of the field fires at ${r.defender} ${where}`,
    `Field: ${r.field.length} card${r.field.length === 1 ? '' : 's'} from ${from}; one Fire action each (no Aim, no cover), highest points destroyed first.`,
    '',
  ];
  const rows = [
    [attacking ? 'Defender' : 'Attacker', 'Faction', 'Class', 'Points', 'Hull damage', 'Kill', 'Shots to kill', '90% within', 'Points/action per 100'],
  ];
  for (const f of r.field) {
    const s = f.shotsToKill;
    rows.push([
      f.defender ?? f.attacker ?? '',
      f.faction,
      f.class,
      f.points === null ? '-' : String(f.points),
      f.expectedHullDamage.toFixed(2),
      pct(f.killProbability),
      s.mean === null ? 'never' : `${s.mean.toFixed(2)}${s.converged ? '' : '+'}`,
      s.p90 === null ? (s.mean === null ? 'never' : `>${s.cdf.length}`) : String(s.p90),
      f.pointsPerAction === null ? '-' : f.pointsPerAction.toFixed(2),
    ]);
  }
  out.push(...textTable(rows, [false, false, false, true, true, true, true, true, true]).map((l) => `  ${l}`));
  const sampled = r.field.filter((f) => f.note);
  if (sampled.length) out.push('', `Sampled, not exact (too many attacks to compute): ${sampled.map((f) => f.defender ?? f.attacker).join(', ')}.`);
  if (r.field.some((f) => !f.shotsToKill.converged))
    out.push('', 'A "+" after shots to kill: the 1,000-action limit stopped it; the mean is over the outcomes computed.');
  if (r.left.length) {
    out.push('', `Not in the field (${r.left.length}):`);
    for (const l of r.left) out.push(`  ${l.faction ? `${l.faction}/` : ''}${l.name}: ${l.reason}`);
  }
  return out.join('\n') + '\n';
}

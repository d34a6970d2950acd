/**
 * The engagement view's sentences for players: the one-line verdict that leads the view, what one
 * Fire action does, and the assumptions in the words of the form's controls (not the CLI's flags).
 * Pure functions of a SimulationResult, so the tests check them without a browser; the figures for
 * statisticians (standard errors, trials, seed, the model in full) go under "Advanced" instead.
 */
import type { SimulationResult } from './messages';
import { formatNumber } from '../format';

/** Below this a figure reads as nothing once rounded for a sentence. */
const NOTHING = 0.005;

/** A chance as a player reads it: "89%", "under 1%", "over 99%", never a misleading 0% or 100%. */
export function roughPercent(p: number): string {
  if (!Number.isFinite(p)) return '—';
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  // Whatever would round to 0% or 100% is said as the bound it is inside.
  if (p < 0.005) return 'under 1%';
  if (p >= 0.995) return 'over 99%';
  return `${Math.round(p * 100)}%`;
}

function inches(n: number): string {
  return `${formatNumber(n, Number.isInteger(n) ? 0 : 1)}"`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The round by which most of a side's wins have happened: the first round after which the loser's
 * chance of being destroyed reaches half of its chance over the whole duel. Undefined when it never dies.
 */
export function usualRound(result: SimulationResult, winner: 'attacker' | 'defender'): number | undefined {
  const loser = winner === 'attacker' ? 'defender' : 'attacker';
  const survival = [...result.engagement.survival].sort((a, b) => a.round - b.round);
  const last = survival.at(-1);
  if (!last) return undefined;
  const total = 1 - last[loser];
  if (total <= 0) return undefined;
  return survival.find((s) => 1 - s[loser] >= total / 2 - 1e-12)?.round;
}

/** The attacker's single Fire action neither strips shields nor damages the hull. */
export function volleyDoesNothing(result: SimulationResult): boolean {
  const v = result.volley;
  return v.expectedHullDamage < NOTHING && v.expectedShieldsRemoved < NOTHING;
}

/** True when nobody is ever destroyed and the attacker's single Fire action does nothing at all. */
export function nothingHappens(result: SimulationResult): boolean {
  const e = result.engagement;
  return e.attackerWins === 0 && e.defenderWins === 0 && volleyDoesNothing(result);
}

/** Neither unit's weapons reach the duel's range (known when the result carries the units' reach). */
function neitherCanFire(result: SimulationResult): boolean {
  const r = result.reach;
  return r !== undefined && r.attacker < result.engagement.range && r.defender < result.engagement.range;
}

/** The sentence that leads the view: who wins the duel, how often, and usually by when. */
export function verdict(result: SimulationResult): string {
  const main = duelVerdict(result);
  return main + closeAndVariantNotes(result);
}

/**
 * What the wins leave out, said after them: the win on morale (its own figure), how often each unit
 * fled (routed: not destroyed), and how often one Ram destroyed both at once (nobody wins).
 */
function closeAndVariantNotes(result: SimulationResult): string {
  const e = result.engagement;
  const a = result.attacker;
  const d = result.defender;
  const out: string[] = [];
  if (e.variantVictory) out.push(`On morale, ${a} wins ${roughPercent(e.variantVictory.attacker)} and ${d} ${roughPercent(e.variantVictory.defender)}.`);
  if (e.routed && e.routed.attacker + e.routed.defender > 0)
    out.push(`${a} flees in ${roughPercent(e.routed.attacker)}, ${d} in ${roughPercent(e.routed.defender)} (fled intact: not destroyed).`);
  if (e.bothDestroyed) out.push(`In ${roughPercent(e.bothDestroyed)} one Ram destroys both at once: nobody wins.`);
  return out.length ? ` ${out.join(' ')}` : '';
}

function duelVerdict(result: SimulationResult): string {
  const e = result.engagement;
  const a = result.attacker;
  const d = result.defender;
  const rounds = plural(e.rounds, 'round');
  const at = inches(e.range);
  // "Still in the fight" is not true of a unit that fled or of two destroyed together.
  const open = !e.routed && !e.bothDestroyed;
  if (neitherCanFire(result)) {
    return `At ${at} neither unit can fire (${a} reaches ${inches(result.reach!.attacker)}, ${d} ${inches(result.reach!.defender)}): nothing happens in the duel.`;
  }
  if (e.attackerWins === 0 && e.defenderWins === 0) {
    return open
      ? `Neither unit destroys the other in ${rounds} at ${at}: every duel ends with both still in the fight.`
      : `Neither unit destroys the other and survives in ${rounds} at ${at}.`;
  }
  const attackerLeads = e.attackerWins >= e.defenderWins;
  const [winner, loser] = attackerLeads ? [a, d] : [d, a];
  const [p, q] = attackerLeads ? [e.attackerWins, e.defenderWins] : [e.defenderWins, e.attackerWins];
  const by = usualRound(result, attackerLeads ? 'attacker' : 'defender');
  const when = by === undefined ? '' : by === 1 ? ', usually in the first round' : `, usually by round ${by}`;
  const duels = `${e.rounds}-round ${e.rounds === 1 ? 'duel' : 'duels'} at ${at}`;
  if (e.neither > p) {
    // Most duels decide nothing: that is the news, not a small win chance.
    const usually = by === undefined ? '' : by === 1 ? ' (usually in the first round)' : ` (usually by round ${by})`;
    const wins = [`${winner} wins ${roughPercent(p)}${usually}`, ...(q > 0 ? [`${loser} ${roughPercent(q)}`] : [])].join(', ');
    return `${roughPercent(e.neither)} of ${duels} end ${open ? 'with both units still in the fight' : 'with neither unit destroying the other'}. ${wins}.`;
  }
  let text = `${winner} wins ${roughPercent(p)} of ${duels}${when}.`;
  const rest: string[] = [];
  if (q > 0) rest.push(`${loser} wins ${roughPercent(q)}`);
  if (e.neither > 0) rest.push(`${roughPercent(e.neither)} end ${open ? 'with both still in the fight' : 'without a winner'}`);
  if (rest.length > 0) text += ` ${capitalise(rest.join('; '))}.`;
  return text;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What one Fire action does, in a sentence; plainly "nothing" when nothing happens. */
export function volleySentence(result: SimulationResult): string {
  const v = result.volley;
  const a = result.attacker;
  const d = result.defender;
  const range = result.options.range;
  const firing = v.weapons.filter((w) => w.inRange);
  if (v.weapons.length === 0) return `${a} has no weapons: its Fire action does nothing.`;
  if (firing.length === 0) return `At ${inches(range ?? result.engagement.range)} none of ${a}'s weapons reach ${d}: its Fire action does nothing.`;
  const hp = v.expectedHullDamage;
  const sh = v.expectedShieldsRemoved;
  if (hp < NOTHING && sh < NOTHING) return `${a}'s Fire action cannot hurt ${d}: it strips no shields and deals no hull damage.`;
  if (hp < NOTHING) return `One Fire action from ${a} strips ${formatNumber(sh, 1)} of ${d}'s shields on average but does not reach its hull.`;
  const stripped = sh >= NOTHING ? ` after stripping ${formatNumber(sh, 1)} shields` : '';
  const kill = v.killProbability;
  const destroys =
    kill <= 0
      ? `never destroys it`
      : kill >= 1
        ? `always destroys it`
        : `destroys it ${kill < 0.01 ? 'rarely (under 1% of the time)' : `${roughPercent(kill)} of the time`}`;
  return `One Fire action from ${a} deals ${formatNumber(hp, 1)} HP to ${d} on average${stripped}, and ${destroys}.`;
}

/** The assumptions behind the figures, worded for the form's controls. */
export function plainAssumptions(result: SimulationResult): string[] {
  const o = result.options;
  const e = result.engagement;
  const a = result.attacker;
  const d = result.defender;
  const out: string[] = [];
  out.push(
    o.range === undefined
      ? `Range "any": every weapon fires in the single Fire action; the duel is fought at ${inches(e.range)}.`
      : `Range ${inches(o.range)}: the units stay this far apart for the whole duel, and weapons that cannot reach never fire.`,
  );
  out.push(`${d} is ${o.cover ? '' : 'not '}in cover, in the Fire action and in the duel.`);
  const aim = o.aim !== undefined ? `${o.aim} is aimed` : 'no weapon is aimed';
  out.push(
    `In the single Fire action ${aim} and ${d} has ${o.brace ? '' : 'not '}braced; in the duel each unit picks its own second action (Aim, Shields Back Online or Brace) every activation.`,
  );
  if (o.defenderShields !== undefined) out.push(`${d} starts with ${plural(o.defenderShields, 'shield')} up; ${a} starts with full shields.`);
  if (o.attackerBases !== undefined && o.defenderBases !== undefined)
    out.push(`${a} starts with ${plural(o.attackerBases, 'base')}, ${d} with ${plural(o.defenderBases, 'base')}.`);
  else if (o.attackerBases !== undefined) out.push(`${a} starts with ${plural(o.attackerBases, 'base')}.`);
  else if (o.defenderBases !== undefined) out.push(`${d} starts with ${plural(o.defenderBases, 'base')}.`);
  out.push(`The duel stops after ${plural(e.rounds, 'round')}; who acts first each round is rolled on LD.`);
  return out;
}

/** The CLI's flags as the form names them, for the simulator's own assumptions shown under Advanced. */
const FORM_NAMES: Record<string, string> = {
  range: 'Range',
  cover: 'Defender in cover',
  aim: 'Aim',
  brace: 'Defender braced',
  'defender-shields': 'Defender shields',
  rounds: 'Rounds',
  trials: 'Trials',
  seed: 'Seed',
  'attacker-bases': "the attacker's bases",
  'defender-bases': "the defender's bases",
};

/** A simulator assumption with the CLI's flags ("--defender-shields") named as the form names them ("Defender shields"). */
export function inFormWords(text: string): string {
  return text.replace(/--([a-z]+(?:-[a-z]+)*)/g, (flag, name: string) => {
    const label = FORM_NAMES[name];
    return label === undefined ? flag : label.startsWith('the ') ? label : `"${label}"`;
  });
}

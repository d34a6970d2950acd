/**
 * What a card does against a field beyond one Fire action with every weapon in range: firepower
 * and durability, reach, the approach (pairwise and as one fleet, approach.ts), boarding, movement,
 * small craft and launch capacity; the features the battle model (./model.ts) weighs.
 */
import { BATTLE_TABLE, BOARDING, CLASSES } from '../rules/data';
import { boardingPmf } from '../sim/battle/engine';
import type { BayCapacity } from '../model/derived';
import { pSuccess } from '../sim/dice';
import type { UnitClass } from '../rules/data';
import type { UnitProfile } from '../sim/types';
import { defenseKey, offenseKey } from './volleys';
import { approachFleet, flatFires, inReachOf, moverOf, subsetIndex } from './approach';
import type { InReach, Mover } from './approach';
import type { FieldMember, ReferenceField } from './field';
import { ownerOf } from './state';
import { type BattleTerm, type BattleFeatures } from './shapes';

const MEMO_MAX = 100_000;

/** Firepower and durability of a profile against the whole field. */
export function figures(
  profile: UnitProfile,
  field: ReferenceField,
  off = offenseKey(profile),
  def = defenseKey(profile),
): { firepower: number; durability: number; exact: boolean } {
  let dealt = field.memo.dealt.get(off);
  if (!dealt) {
    const volleys = ownerOf(field).volleys;
    dealt = { sum: 0, exact: true };
    for (const x of field.members) {
      const s = volleys.shareOf(profile, x.profile, off, x.def);
      dealt.sum += s.sequential * x.points;
      dealt.exact &&= s.exact;
    }
    if (field.memo.dealt.size > MEMO_MAX) field.memo.dealt.clear();
    field.memo.dealt.set(off, dealt);
  }
  let taken = field.memo.taken.get(def);
  if (!taken) {
    const volleys = ownerOf(field).volleys;
    taken = { sum: 0, exact: true };
    for (const x of field.members) {
      const s = volleys.shareOf(x.profile, profile, x.off, def);
      taken.sum += s.sequential;
      taken.exact &&= s.exact;
    }
    if (field.memo.taken.size > MEMO_MAX) field.memo.taken.clear();
    field.memo.taken.set(def, taken);
  }
  const n = field.members.length;
  return { firepower: n ? dealt.sum / n : 0, durability: taken.sum > 0 ? n / taken.sum : Infinity, exact: dealt.exact && taken.exact };
}

/** The terms read from the approach pairwise (`approachFigures`) and from the card's fleet against the field's (`fleetFigures`): they move with the card's stopping distance. */
const APPROACH_TERMS = ['logFA', 'logHA', 'smallFA', 'boardFA', 'boardHA'] as const satisfies readonly BattleTerm[];
export const FLEET_TERMS = ['logFF', 'logHF'] as const satisfies readonly BattleTerm[];
export const MOVING_TERMS: readonly BattleTerm[] = [...APPROACH_TERMS, ...FLEET_TERMS];

/** The least share of its rounds a unit's Fire actions count for on the approach (one that never reaches still threatens). */
const APPROACH_FLOOR = 0.05;

function moveOf(p: UnitProfile): number {
  return (p.move ?? []).reduce((t, x) => t + x, 0);
}

/** The share of the battle's rounds a weapon of range `range` fires in, closing at `closing` inches a round. */
function reachShare(range: number, closing: number): number {
  const { depth } = BATTLE_TABLE;
  const rounds = BATTLE_TABLE.rounds;
  const wait = closing > 0 ? Math.max(0, (depth - range) / closing) : range >= depth ? 0 : rounds;
  return Math.max(0.05, Math.min(1, (rounds - wait) / rounds));
}

/** The carried craft's points: the field's cheapest Fighter in each Fighter slot; Fighters and Bombers in turn in a Carrier's reserves. */
export function carriedPoints(bays: BayCapacity, members: readonly FieldMember[]): number {
  const cheapest = (cls: UnitClass) => members.filter((m) => m.class === cls).reduce((lo, m) => Math.min(lo, m.points), Infinity);
  const f = cheapest('Fighter');
  const b = cheapest('Bomber');
  let total = 0;
  if (Number.isFinite(f)) total += bays.tierFighters * f;
  const kinds = [f, b].filter((x) => Number.isFinite(x));
  for (let i = 0; i < bays.reserves && kinds.length; i++) total += kinds[i % kinds.length]!;
  return total;
}

/**
 * A card's Fire actions against the field on the approach, by the subsets of weapons in reach
 * (approach.ts `InReach`): its own subsets' points removed from each member, and each member's
 * subsets' share of the card, computed on first use and kept for the card's stopping distances.
 */
interface CardShares {
  mine: InReach;
  def: string;
  /** [card subset][member]: sequential share x the member's points. */
  dealt: number[][];
  /** [member][member subset]: sequential share of the card. */
  taken: number[][];
}

export function cardShares(profile: UnitProfile, field: ReferenceField): CardShares {
  const mine = inReachOf(profile, offenseKey);
  return { mine, def: defenseKey(profile), dealt: mine.subsets.map(() => []), taken: field.members.map(() => []) };
}

function fieldApproach(field: ReferenceField): { mover: Mover; inReach: InReach }[] {
  return (field.memo.approach ??= field.members.map((m) => ({ mover: moverOf(m.profile), inReach: inReachOf(m.profile, offenseKey) })));
}

function dealtBy(c: CardShares, field: ReferenceField, k: number, j: number): number {
  let v = c.dealt[k]![j];
  if (v === undefined) {
    const m = field.members[j]!;
    const sub = c.mine.subsets[k]!;
    v = c.dealt[k]![j] = ownerOf(field).volleys.shareOf(sub.profile, m.profile, sub.key, m.def).sequential * m.points;
  }
  return v;
}

function takenFrom(c: CardShares, field: ReferenceField, profile: UnitProfile, j: number, k: number): number {
  let v = c.taken[j]![k];
  if (v === undefined) {
    const sub = fieldApproach(field)[j]!.inReach.subsets[k]!;
    v = c.taken[j]![k] = ownerOf(field).volleys.shareOf(sub.profile, profile, sub.key, c.def).sequential;
  }
  return v;
}

/** What the card's Fire actions at distances `at` remove of member `j` (its points). */
function dealtAt(c: CardShares, field: ReferenceField, j: number, at: Float64Array): number {
  let dealt = 0;
  for (let i = 0; i < at.length; i += 2) {
    const k = subsetIndex(c.mine, at[i]!);
    if (k >= 0) dealt += at[i + 1]! * dealtBy(c, field, k, j);
  }
  return dealt;
}

/** What member `j`'s Fire actions at distances `at` (its weapons `inReach`) take of the card. */
function takenAt(c: CardShares, field: ReferenceField, profile: UnitProfile, j: number, inReach: InReach, at: Float64Array): number {
  let taken = 0;
  for (let i = 0; i < at.length; i += 2) {
    const k = subsetIndex(inReach, at[i]!);
    if (k >= 0) taken += at[i + 1]! * takenFrom(c, field, profile, j, k);
  }
  return taken;
}

/**
 * Firepower and durability on the approach (logs): each pair of the card and a field member on the
 * approach table (approach.ts), the Fire actions each makes with the weapons in reach, per round of
 * the battle; the card closing to `me.stopAt` before it fires (the engine's policy: its
 * longest reach).
 */
export function approachFigures(
  profile: UnitProfile,
  field: ReferenceField,
  all: { firepower: number; durability: number },
  me: Mover,
  c: CardShares,
): { logFA: number; logHA: number; boardFA: number; boardHA: number } {
  const members = fieldApproach(field);
  const approaches = ownerOf(field).approaches;
  const cr = profile.cr;
  const hp = profile.hp * profile.bases;
  let dealt = 0;
  let taken = 0;
  let boarded = 0;
  let boardedBy = 0;
  for (let j = 0; j < members.length; j++) {
    const them = members[j]!;
    const [mineAt, theirsAt] = approaches.firesOf(me, them.mover, BATTLE_TABLE.rounds);
    dealt += dealtAt(c, field, j, mineAt);
    taken += takenAt(c, field, profile, j, them.inReach, theirsAt);
    const m = field.members[j]!;
    if (cr && m.profile.cr) {
      // Boarding (both have CR): in each round the card fires within boarding range of the member,
      // it boards it as its second action (the policy's choice when that is worth more than aiming:
      // counted as always, the fit weighs it), and the member boards it back in the rounds it
      // fires that close.
      const mine = withinBoarding(mineAt);
      const theirs = withinBoarding(theirsAt);
      const boarding = (field.memo.boarding ??= new Map());
      if (mine > 0) boarded += mine * boardingShare(boarding, cr, m.profile.cr, m.profile.hp * m.profile.bases) * m.points;
      if (theirs > 0) boardedBy += theirs * boardingShare(boarding, m.profile.cr, cr, hp);
    }
  }
  const perRound = field.members.length * BATTLE_TABLE.rounds;
  const fa = Math.max(dealt / perRound, APPROACH_FLOOR * all.firepower);
  const ha = Math.min(taken > 0 ? perRound / taken : Infinity, all.durability / APPROACH_FLOOR);
  return {
    logFA: Math.log(fa),
    logHA: Math.log(ha),
    boardFA: Math.log((fa + boarded / perRound) / fa),
    boardHA: -Math.log((perRound / ha + boardedBy) / (perRound / ha)),
  };
}

/** The Fire actions of `at` (distance, count, ...) made within boarding range. */
function withinBoarding(at: Float64Array): number {
  let n = 0;
  for (let i = 0; i < at.length; i += 2) if (at[i]! <= BOARDING.range) n += at[i + 1]!;
  return n;
}

/** The expected share of a unit of `hp` HP (all its bases) one boarding by `a` removes, defended by `d` (engine.ts `boardingPmf`). */
function boardingShare(boardingDamage: Map<string, number>, a: { target: number; dice: number }, d: { target: number; dice: number }, hp: number): number {
  if (!(hp > 0)) return 0;
  // Few distinct CR pairs (each computed once); the damage depends on the hull only up to the attacker's dice.
  const cap = Math.min(hp, a.dice);
  const key = `${a.target}/${a.dice}/${d.target}/${d.dice}/${cap}`;
  let s = boardingDamage.get(key);
  if (s === undefined) {
    const pmf = boardingPmf(a, d);
    s = 0;
    for (let k = 1; k < pmf.length; k++) s += pmf[k]! * Math.min(k, cap);
    if (boardingDamage.size > 100_000) boardingDamage.clear();
    boardingDamage.set(key, s);
  }
  return s / hp;
}

const FLEET_MEMO_MAX = 20_000;

/** Firepower and durability of the card's fleet against the field as one fleet (logs), closing to `stopAt`. */
export function fleetFigures(
  profile: UnitProfile,
  field: ReferenceField,
  all: { firepower: number; durability: number },
  me: Mover,
  c: CardShares,
  /** Whether its firepower is wanted (else logFF is 0: only its durability is computed). */
  firepower = true,
): { logFF: number; logHF: number } {
  const members = fieldApproach(field);
  const played = (field.memo.fleet ??= new Map());
  let fleet = played.get(me.key);
  if (!fleet) {
    const maps = approachFleet(
      me,
      members.map((m) => m.mover),
      BATTLE_TABLE.rounds,
    );
    fleet = { mine: maps.mine.map(flatFires), theirs: maps.theirs.map(flatFires) };
    if (played.size >= FLEET_MEMO_MAX) played.clear();
    played.set(me.key, fleet);
  }
  let dealt = 0;
  let taken = 0;
  for (let j = 0; j < members.length; j++) {
    if (firepower) dealt += dealtAt(c, field, j, fleet.mine[j]);
    taken += takenAt(c, field, profile, j, members[j]!.inReach, fleet.theirs[j]);
  }
  const rounds = BATTLE_TABLE.rounds;
  const perRound = field.members.length * rounds;
  const fa = Math.max(dealt / rounds, APPROACH_FLOOR * all.firepower);
  const ha = Math.min(taken > 0 ? perRound / taken : Infinity, all.durability / APPROACH_FLOOR);
  return { logFF: firepower ? Math.log(fa) : 0, logHF: Math.log(ha) };
}

/** A card's features against a field (undefined: it deals or takes no damage); on the approach it closes to `stopAt` (default: its longest reach). */
export function battleFeatures(
  profile: UnitProfile,
  bays: BayCapacity,
  field: ReferenceField,
  stopAt?: number,
  only?: ReadonlySet<BattleTerm>,
): BattleFeatures | undefined {
  const all = figures(profile, field);
  if (!(all.firepower > 0) || !Number.isFinite(all.durability)) return undefined;
  const n = field.members.length;
  const fieldMove = n ? field.members.reduce((t, m) => t + moveOf(m.profile), 0) / n : 0;
  const mine = moveOf(profile);
  // Reach of its weapons: each weapon's firepower alone, weighed by the share of rounds it fires.
  let sum = 0;
  let weighted = 0;
  // (Each weapon alone is a card of its own to the volleys: skipped where no term reads it.)
  const wanted = (...ts: BattleTerm[]) => !only || ts.some((t) => only.has(t));
  if (wanted('logFR', 'smallF'))
    for (const w of profile.weapons) {
      const one = { ...profile, weapons: [w] };
      const f = figures(one, field).firepower;
      sum += f;
      weighted += f * reachShare(w.range, mine + fieldMove);
    }
  const reach = sum > 0 ? weighted / sum : 1;
  // The field's reach at it: the mean over the field of its longest weapon's share of rounds.
  let taken = 0;
  for (const m of field.members) {
    const longest = m.profile.weapons.reduce((r, w) => Math.max(r, w.range), 0);
    taken += reachShare(longest, mine + moveOf(m.profile));
  }
  const exposed = n ? taken / n : 1;
  const shares = cardShares(profile, field);
  const me = moverOf(profile, stopAt);
  const { logFA, logHA, boardFA, boardHA } = wanted(...APPROACH_TERMS)
    ? approachFigures(profile, field, all, me, shares)
    : { logFA: 0, logHA: 0, boardFA: 0, boardHA: 0 };
  const { logFF, logHF } = wanted(...FLEET_TERMS) ? fleetFigures(profile, field, all, me, shares, wanted('logFF')) : { logFF: 0, logHF: 0 };
  const cr = profile.cr ? profile.cr.dice * pSuccess(profile.cr.target) : 0;
  return {
    logF: Math.log(all.firepower),
    logFR: Math.log(all.firepower * reach),
    logH: Math.log(all.durability),
    logFA,
    logHA,
    logFF,
    logHF,
    cover: -Math.log(exposed),
    move: mine / 10,
    small: CLASSES[profile.class]?.smallCraft ? 1 : 0,
    squadron: profile.combinedShields && profile.bases > 1 ? 1 : 0,
    cr,
    boardFA,
    boardHA,
    logBases: Math.log(profile.bases),
    logClass: Math.log(CLASSES[profile.class]?.points ?? 1),
    smallF: CLASSES[profile.class]?.smallCraft ? Math.log(all.firepower * reach) : 0,
    smallH: CLASSES[profile.class]?.smallCraft ? Math.log(all.durability) : 0,
    smallFA: CLASSES[profile.class]?.smallCraft ? logFA : 0,
    carried: carriedPoints(bays, field.members),
  };
}

/**
 * From a parsed unit card (the document model) to the numbers the engine uses. A card the
 * simulator cannot use (no class, no BS or HP, a weapon without damage...) gives a sentence saying
 * what is missing; the checker reports the card's other problems where they are.
 */
import { CLASSES, WEAPON_TYPES } from '../rules/data';
import type { StatName } from '../rules/data';
import type { StatValue, UnitCard } from '../model/types';
import type { UnitProfile, WeaponProfile } from './types';
import { clamp, clampWhole } from './limits';

/**
 * Sizes above these are not a game any more; they would only overflow the engine's state keys.
 * (Attack counts are not capped: huge ones are sampled.)
 */
export const PROFILE_LIMITS = {
  hpMax: 1e9,
  basesMax: 1000,
  attacksMax: 1e9,
  damageMax: 1e9,
  shieldsMax: 1e6,
  tonnageMax: 1000,
  crDiceMax: 1000,
  moveMax: 1000,
} as const;

type Stat<K extends StatValue['kind']> = Extract<StatValue, { kind: K }>;

export function profileFromCard(card: UnitCard): { profile?: UnitProfile; error?: string } {
  const name = card.name.value?.trim() || card.name.raw || '(unnamed card)';
  const fail = (why: string) => ({ error: `${name}: ${why}` });
  const cls = card.class.value;
  if (!cls || !CLASSES[cls]) return fail(`no known class${card.class.raw ? ` ("${card.class.raw}")` : ''}, so it cannot be simulated.`);
  const row = CLASSES[cls];
  const bases = card.bases?.value ?? row.bases;
  if (!Number.isInteger(bases) || bases < 1 || bases > PROFILE_LIMITS.basesMax)
    return fail(`bases must be a whole number from 1 to ${PROFILE_LIMITS.basesMax}.`);
  const baseMm = card.base?.value ?? row.baseMm;
  if (!Number.isFinite(baseMm) || baseMm <= 0) return fail('the base size must be a positive number of millimetres.');

  const entries = card.stats?.entries ?? {};
  /** A stat's parsed value: undefined when absent, 'bad' when written but unreadable. */
  function stat<K extends StatValue['kind']>(s: StatName, kind: K): Stat<K> | 'none' | 'bad' | undefined {
    const e = entries[s];
    if (!e) return undefined;
    if (!e.value) return 'bad';
    if (e.value.kind === 'none') return 'none';
    return e.value.kind === kind ? (e.value as Stat<K>) : 'bad';
  }

  const bs = stat('BS', 'target');
  if (bs === undefined || bs === 'none' || bs === 'bad')
    return fail(`BS ${bs === 'bad' ? `"${entries.BS?.raw}" is not readable` : 'is missing'}; it is needed to fire.`);
  const hp = stat('HP', 'count');
  if (hp === undefined || hp === 'none' || hp === 'bad') return fail(`HP ${hp === 'bad' ? `"${entries.HP?.raw}" is not readable` : 'is missing'}.`);
  if (!Number.isInteger(hp.n) || hp.n < 1 || hp.n > PROFILE_LIMITS.hpMax) return fail(`HP must be a whole number from 1 to ${PROFILE_LIMITS.hpMax}.`);

  // D, SH, AC and LD are optional: absent or "-" means the unit does not have them.
  const optional = <K extends StatValue['kind']>(s: StatName, kind: K): Stat<K> | undefined | string => {
    const v = stat(s, kind);
    if (v === 'bad') return `${s} "${entries[s]?.raw}" is not readable.`;
    return v === 'none' ? undefined : v;
  };
  const d = optional('D', 'target');
  if (typeof d === 'string') return fail(d);
  const sh = optional('SH', 'count');
  if (typeof sh === 'string') return fail(sh);
  if (sh && (!Number.isInteger(sh.n) || sh.n < 0 || sh.n > PROFILE_LIMITS.shieldsMax))
    return fail(`SH must be a whole number from 0 to ${PROFILE_LIMITS.shieldsMax}.`);
  const ac = optional('AC', 'target');
  if (typeof ac === 'string') return fail(ac);
  const ld = optional('LD', 'targetDice');
  if (typeof ld === 'string') return fail(ld);
  const cr = optional('CR', 'targetDice');
  if (typeof cr === 'string') return fail(cr);
  const t = optional('T', 'count');
  if (typeof t === 'string') return fail(t);
  // M only matters to the fleet battle's approach; an unreadable M leaves the unit where it enters.
  const m = stat('M', 'sticks');
  const move = m && m !== 'none' && m !== 'bad' ? m.parts.filter((x) => Number.isFinite(x) && x >= 0).slice(0, 2) : undefined;

  const weapons: WeaponProfile[] = [];
  for (const [i, w] of (card.weapons?.items ?? []).entries()) {
    const wname = w.name.value?.trim() || `weapon ${i + 1}`;
    const need = (what: string, v: number | undefined, max: number): string | undefined =>
      v === undefined
        ? `weapon "${wname}" has no readable ${what}.`
        : !Number.isFinite(v) || v < 0 || v > max
          ? `weapon "${wname}" has ${what} ${v}, outside 0..${max}.`
          : undefined;
    if (!w.type.value) return fail(`weapon "${wname}" has no known type${w.type.raw ? ` ("${w.type.raw}")` : ''}.`);
    const problem =
      need('range', w.range.value, Number.MAX_SAFE_INTEGER) ??
      need('damage', w.damage.value, PROFILE_LIMITS.damageMax) ??
      need('attacks', w.attacks.value, PROFILE_LIMITS.attacksMax);
    if (problem) return fail(problem);
    const damage = w.damage.value!;
    const attacks = w.attacks.value!;
    if (!Number.isInteger(damage) || damage < 1) return fail(`weapon "${wname}" must deal a whole number of damage, at least 1.`);
    if (!Number.isInteger(attacks)) return fail(`weapon "${wname}" must have a whole number of attacks.`);
    weapons.push({ name: wname, type: w.type.value, range: w.range.value!, damage, attacks });
  }

  // Optional properties are added one by one, not spread in: spreading literals into a literal
  // takes V8's slow path, and this runs for every card of a file (the points estimate).
  const profile: UnitProfile = {
    name,
    class: cls,
    bases,
    baseMm,
    bs: bs.target,
    dodge: d?.target,
    sh: sh?.n,
    armour: ac?.target,
    hp: hp.n,
    ld: ld ? { target: ld.target, dice: ld.dice } : undefined,
    combinedShields: row.combinedShields,
    weapons,
  };
  if (move && move.length) profile.move = move;
  if (cr) profile.cr = { target: cr.target, dice: cr.dice };
  if (t && Number.isInteger(t.n) && t.n >= 1) profile.tonnage = Math.min(t.n, PROFILE_LIMITS.tonnageMax);
  if (typeof card.points.value === 'number' && Number.isFinite(card.points.value) && card.points.value >= 0) profile.points = card.points.value;
  return { profile };
}

/**
 * Checks a profile built elsewhere (a test, a server request) against what the engine can take;
 * an empty list means it is usable.
 */
export function profileProblems(p: UnitProfile): string[] {
  const out: string[] = [];
  const intIn = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (!p || typeof p !== 'object') return ['The unit profile is missing.'];
  if (!CLASSES[p.class]) out.push(`Unknown class "${String(p.class)}".`);
  if (!intIn(p.bases, 1, PROFILE_LIMITS.basesMax)) out.push('bases must be a whole number of at least 1.');
  if (!intIn(p.hp, 1, PROFILE_LIMITS.hpMax)) out.push(`HP must be a whole number from 1 to ${PROFILE_LIMITS.hpMax}.`);
  if (!intIn(p.bs, 0, 1000)) out.push('BS must be a target number.');
  for (const [k, v] of [
    ['D', p.dodge],
    ['AC', p.armour],
  ] as const)
    if (v !== undefined && !intIn(v, 0, 1000)) out.push(`${k} must be a target number or absent.`);
  if (p.sh !== undefined && !intIn(p.sh, 0, PROFILE_LIMITS.shieldsMax)) out.push('SH must be a whole number or absent.');
  if (p.ld !== undefined && !(intIn(p.ld.target, 0, 1000) && intIn(p.ld.dice, 0, 1000))) out.push('LD must be a target and a number of dice.');
  if (!Array.isArray(p.weapons)) out.push('weapons must be a list.');
  else
    p.weapons.forEach((w, i) => {
      if (!intIn(w.attacks, 0, PROFILE_LIMITS.attacksMax)) out.push(`Weapon ${i + 1}: attacks must be a whole number.`);
      if (!intIn(w.damage, 1, PROFILE_LIMITS.damageMax)) out.push(`Weapon ${i + 1}: damage must be a whole number of at least 1.`);
      if (typeof w.range !== 'number' || !(w.range >= 0)) out.push(`Weapon ${i + 1}: range must be a number of inches.`);
    });
  return out;
}

const wholeIn = (v: unknown, min: number, max: number, dflt: number): number => clampWhole(v, min, max, dflt);

const optionalIn = (v: unknown, min: number, max: number): number | undefined => clampWhole(v, min, max, undefined);

/**
 * A profile the engine can always run: every number whole and within the limits, unknown classes
 * treated as a single-base Destroyer. The public entry points pass profiles through this, so a
 * caller that skipped `profileProblems` gets numbers, never an exception or a hang.
 */
export function sanitizeProfile(p: UnitProfile): UnitProfile {
  const src = (p && typeof p === 'object' ? p : {}) as Partial<UnitProfile>;
  const cls = src.class && CLASSES[src.class] ? src.class : 'Destroyer';
  const weapons = Array.isArray(src.weapons) ? src.weapons.filter((w): w is WeaponProfile => !!w && typeof w === 'object') : [];
  // In the order a spread of the optional parts gave (name ... combinedShields, the optional
  // parts, weapons), built without spreads (see profileFromCard).
  const out = {
    name: typeof src.name === 'string' ? src.name : String(src.name ?? ''),
    class: cls,
    bases: wholeIn(src.bases, 1, PROFILE_LIMITS.basesMax, CLASSES[cls].bases),
    baseMm: typeof src.baseMm === 'number' && Number.isFinite(src.baseMm) && src.baseMm > 0 ? src.baseMm : CLASSES[cls].baseMm,
    bs: wholeIn(src.bs, 0, 1000, 1000),
    dodge: optionalIn(src.dodge, 0, 1000),
    sh: optionalIn(src.sh, 0, PROFILE_LIMITS.shieldsMax),
    armour: optionalIn(src.armour, 0, 1000),
    hp: wholeIn(src.hp, 1, PROFILE_LIMITS.hpMax, 1),
    ld: src.ld && typeof src.ld === 'object' ? { target: wholeIn(src.ld.target, 0, 1000, 10), dice: wholeIn(src.ld.dice, 0, 1000, 0) } : undefined,
    combinedShields: src.combinedShields === true,
  } as UnitProfile;
  if (Array.isArray(src.move))
    out.move = src.move.slice(0, 2).map((x) => (typeof x === 'number' && Number.isFinite(x) ? clamp(x, 0, PROFILE_LIMITS.moveMax) : 0));
  if (src.cr && typeof src.cr === 'object')
    out.cr = { target: wholeIn(src.cr.target, 0, 1000, 10), dice: wholeIn(src.cr.dice, 0, PROFILE_LIMITS.crDiceMax, 0) };
  if (src.tonnage !== undefined && typeof src.tonnage === 'number' && src.tonnage >= 1) out.tonnage = wholeIn(src.tonnage, 1, PROFILE_LIMITS.tonnageMax, 1);
  if (typeof src.points === 'number' && Number.isFinite(src.points) && src.points >= 0) out.points = src.points;
  out.weapons = weapons.map((w, i) => ({
    name: typeof w.name === 'string' ? w.name : `weapon ${i + 1}`,
    type: WEAPON_TYPES.includes(w.type) ? w.type : WEAPON_TYPES[0]!,
    range: typeof w.range === 'number' && w.range >= 0 ? w.range : 0,
    damage: wholeIn(w.damage, 1, PROFILE_LIMITS.damageMax, 1),
    attacks: wholeIn(w.attacks, 0, PROFILE_LIMITS.attacksMax, 0),
  }));
  return out;
}

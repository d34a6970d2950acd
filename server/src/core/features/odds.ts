/**
 * A weapon's odds against the reference target (`fabledStar.referenceTarget`): expected hull damage
 * and kill chance of that one weapon system firing alone, computed exactly by the simulator. Inlay
 * hints show the two figures; the weapon hover shows the breakdown.
 */
import type { UnitCard, Weapon } from '../model/types';
import type { Workspace, CardRef } from '../workspace';
import type { UnitProfile, VolleyResult, WeaponBreakdown } from '../sim/types';
import { exactVolleyResult } from '../sim/volley';
import { profileFromCard } from '../sim/profile';
import { md, num, pct } from './shared';

/** Exact volleys above this much work are not computed for hints and hovers (they must stay instant). */
const HINT_WORK_LIMIT = 2e6;

export interface WeaponOdds {
  target: CardRef;
  weapon: string;
  expectedHullDamage: number;
  killProbability: number;
  breakdown: WeaponBreakdown | undefined;
  volley: VolleyResult;
}

/**
 * Results by what the simulator reads: the attacker's profile, the weapon's and the target's (the
 * key is made of profileFromCard's output, so it cannot miss a field the simulator uses). A card's
 * odds are recomputed only when one of the two profiles changes. Bounded so that a long session
 * does not grow it without end.
 */
const cache = new Map<string, WeaponOdds | null>();
const CACHE_MAX = 2000;

/** Profiles per parsed card (cards are reused across edits that do not touch them). */
const profiles = new WeakMap<UnitCard, UnitProfile | null>();

function profile(card: UnitCard): UnitProfile | undefined {
  let p = profiles.get(card);
  if (p === undefined) profiles.set(card, (p = profileFromCard(card).profile ?? null));
  return p ?? undefined;
}

/** The reference target: a card of that name, another faction's than the attacker's first if names clash. */
export function referenceCard(ws: Workspace, name: string, faction?: string): CardRef | undefined {
  return ws.card(name, faction, 'opponent');
}

export function weaponOdds(ws: Workspace, card: UnitCard, w: Weapon, targetName: string): WeaponOdds | undefined {
  const target = referenceCard(ws, targetName, card.faction.value);
  if (!target) return undefined;
  const att = profile(card);
  const def = profile(target.card);
  const index = card.weapons?.items.indexOf(w) ?? -1;
  const wp = att?.weapons.find((x) => x.name === w.name.value) ?? (index >= 0 ? att?.weapons[index] : undefined);
  if (!att || !def || !wp) return undefined;
  const key = JSON.stringify([att, wp, def, target.uri]);
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  let out: WeaponOdds | null = null;
  try {
    const volley = exactVolleyResult({ ...att, weapons: [wp] }, def, {}, HINT_WORK_LIMIT);
    if (volley)
      out = {
        target,
        weapon: wp.name,
        expectedHullDamage: volley.expectedHullDamage,
        killProbability: volley.killProbability,
        breakdown: volley.weapons[0],
        volley,
      };
  } catch {
    out = null;
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out ?? undefined;
}

/** "2.31 dmg · 7% kill" */
export function oddsLabel(o: WeaponOdds): string {
  return `${num(o.expectedHullDamage)} dmg · ${pct(o.killProbability)} kill`;
}

export function weaponOddsMarkdown(ws: Workspace, card: UnitCard, w: Weapon, targetName: string): string | undefined {
  const o = weaponOdds(ws, card, w, targetName);
  if (!o) {
    const t = referenceCard(ws, targetName, card.faction.value);
    return t ? `_Against ${md(targetName)}: too much work to compute exactly in a hover._` : `_Reference target ${md(targetName)}: no card of that name._`;
  }
  const b = o.breakdown;
  const rows = [
    `**Against ${md(o.target.card.name.value ?? targetName)}** (this weapon system alone, one Fire action):`,
    `- expected hull damage **${num(o.expectedHullDamage)}**, kill chance **${pct(o.killProbability)}**`,
  ];
  if (b) {
    rows.push(`- attacks ${num(b.attacks)}${b.aimed ? ' (aimed)' : ''}; expected hits landing ${num(b.expectedHits)} (Critical Hits ${num(b.expectedCrits)})`);
    rows.push(`- expected shields removed ${num(b.expectedShieldsRemoved)}, hull damage ${num(b.expectedHullDamage)}`);
    if (!b.inRange) rows.push('- out of range at the default distance');
  }
  return rows.join('\n');
}

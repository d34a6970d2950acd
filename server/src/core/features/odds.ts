/**
 * A weapon's odds against the reference target (`fabledStar.referenceTarget`): what that one weapon
 * system does firing alone (hull damage, kill chance, shields stripped), and its share of the card's
 * whole Fire action, computed exactly by the simulator. Inlay hints show a short label that never
 * reads as "nothing" for a weapon that strips shields; the tooltip and the weapon hover give the detail.
 */
import type { UnitCard, Weapon } from '../model/types';
import type { Workspace, CardRef } from '../workspace';
import type { UnitProfile, VolleyResult, WeaponBreakdown } from '../sim/types';
import { exactVolleyResult } from '../sim/volley';
import { profileFromCard } from '../sim/profile';
import { getMemo, memo, setMemo } from '../model/memo';
import { md, num, pct } from './shared';

/** Exact volleys above this much work are not computed for hints and hovers (they must stay instant). */
const HINT_WORK_LIMIT = 2e6;
/**
 * The card's whole Fire action gets a tenth of that: it is computed once per card, and a share is
 * a nicety next to the weapon's own figures (without it the hint shows only the hull damage). With
 * it, the first hints of the example Myr-Valari file against a Capital Ship take about as long as
 * the single weapons alone (about 10 ms), where the full budget took 65-270 ms.
 */
const WHOLE_WORK_LIMIT = 2e5;

export interface WeaponOdds {
  target: CardRef;
  weapon: string;
  /** This weapon system firing alone. */
  expectedHullDamage: number;
  killProbability: number;
  expectedShieldsRemoved: number;
  breakdown: WeaponBreakdown | undefined;
  volley: VolleyResult;
  /**
   * The card's whole Fire action (every weapon) and this weapon's part in it; undefined when the
   * whole action is too much work to compute for a hint.
   */
  whole?: {
    weapons: number;
    expectedHullDamage: number;
    expectedShieldsRemoved: number;
    killProbability: number;
    /** This weapon's share (0-1) of the whole action's hull damage and shields stripped. */
    hullShare: number;
    shieldsShare: number;
  };
}

/** Longest odds label: VS Code cuts inlay hints at `editor.inlayHints.maximumLength` (43 by default). */
export const ODDS_LABEL_MAX = 28;

/** Figures below this read as zero once rounded for the label. */
const NOTHING = 0.005;

/**
 * A workspace's odds, kept with the workspace: results by what the simulator reads, the attacker's
 * profile, the weapon's and the target's (the key is made of profileFromCard's output, so it cannot
 * miss a field the simulator uses), and the card's whole Fire action against the target. A card's
 * odds are recomputed only when one of the two profiles changes. Bounded so that a long session
 * does not grow them without end.
 */
interface OddsCache {
  weapons: Map<string, WeaponOdds | null>;
  whole: Map<string, VolleyResult | null>;
}
const ODDS = memo<OddsCache>('weapon odds');
const CACHE_MAX = 2000;

function oddsCache(ws: Workspace): OddsCache {
  let c = getMemo(ws, ODDS);
  if (!c) setMemo(ws, ODDS, (c = { weapons: new Map(), whole: new Map() }));
  return c;
}

/** Profiles per parsed card (cards are reused across edits that do not touch them). */
const PROFILE = memo<UnitProfile | null>('odds profile');

function profile(card: UnitCard): UnitProfile | undefined {
  let p = getMemo(card, PROFILE);
  if (p === undefined) setMemo(card, PROFILE, (p = profileFromCard(card).profile ?? null));
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
  const caches = oddsCache(ws);
  const cache = caches.weapons;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  let out: WeaponOdds | null = null;
  try {
    const volley = exactVolleyResult({ ...att, weapons: [wp] }, def, {}, HINT_WORK_LIMIT);
    if (volley) {
      out = {
        target,
        weapon: wp.name,
        expectedHullDamage: volley.expectedHullDamage,
        killProbability: volley.killProbability,
        expectedShieldsRemoved: volley.expectedShieldsRemoved,
        breakdown: volley.weapons[0],
        volley,
      };
      const whole = att.weapons.length > 1 ? wholeFire(caches.whole, att, def) : volley;
      const mine = whole?.weapons[att.weapons.indexOf(wp)];
      if (whole && mine) {
        const share = (part: number, all: number) => (all > 0 ? Math.min(1, Math.max(0, part / all)) : 0);
        out.whole = {
          weapons: att.weapons.length,
          expectedHullDamage: whole.expectedHullDamage,
          expectedShieldsRemoved: whole.expectedShieldsRemoved,
          killProbability: whole.killProbability,
          hullShare: share(mine.expectedHullDamage, whole.expectedHullDamage),
          shieldsShare: share(mine.expectedShieldsRemoved, whole.expectedShieldsRemoved),
        };
      }
    }
  } catch {
    out = null;
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out ?? undefined;
}

/** The card's whole Fire action against the target (every weapon firing), cached like single weapons. */
function wholeFire(wholeCache: Map<string, VolleyResult | null>, att: UnitProfile, def: UnitProfile): VolleyResult | undefined {
  const key = JSON.stringify([att, def]);
  const hit = wholeCache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const v = exactVolleyResult(att, def, {}, WHOLE_WORK_LIMIT) ?? null;
  if (wholeCache.size >= CACHE_MAX) wholeCache.delete(wholeCache.keys().next().value!);
  wholeCache.set(key, v);
  return v ?? undefined;
}

/**
 * The hint's label, short enough never to be cut: "2.31 HP · 7.1% kill" when the weapon alone can
 * kill; "1.2 HP · 40% of card dmg" when it cannot (its share of the hull damage of the card's whole Fire action); "strips 1.8 SH"
 * for a weapon that only takes shields down; "no effect" when it does neither.
 */
export function oddsLabel(o: WeaponOdds): string {
  if (o.expectedHullDamage >= NOTHING) {
    const hp = `${num(o.expectedHullDamage)} HP`;
    if (o.killProbability > 0) return `${hp} · ${pct(o.killProbability)} kill`;
    if (o.whole && o.whole.weapons > 1 && o.whole.expectedHullDamage > 0) return `${hp} · ${pct(o.whole.hullShare)} of card dmg`;
    return hp;
  }
  if (o.expectedShieldsRemoved >= NOTHING) return `strips ${num(o.expectedShieldsRemoved)} SH`;
  return 'no effect';
}

export function weaponOddsMarkdown(ws: Workspace, card: UnitCard, w: Weapon, targetName: string): string | undefined {
  const o = weaponOdds(ws, card, w, targetName);
  if (!o) {
    const t = referenceCard(ws, targetName, card.faction.value);
    return t ? `_Against ${md(targetName)}: too much work to compute exactly in a hover._` : `_Reference target ${md(targetName)}: no card of that name._`;
  }
  const b = o.breakdown;
  const target = md(o.target.card.name.value ?? targetName);
  const rows = [
    `**Against ${target}** (this weapon system alone, one Fire action, every weapon in range):`,
    `- expected hull damage **${num(o.expectedHullDamage)}**, kill chance **${pct(o.killProbability)}**, shields stripped **${num(o.expectedShieldsRemoved)}**`,
  ];
  if (b) {
    rows.push(`- attacks ${num(b.attacks)}${b.aimed ? ' (aimed)' : ''}; expected hits landing ${num(b.expectedHits)} (Critical Hits ${num(b.expectedCrits)})`);
    if (!b.inRange) rows.push('- out of range at the default distance');
  }
  if (o.expectedHullDamage < NOTHING && o.expectedShieldsRemoved < NOTHING) {
    rows.push(`- it neither strips shields nor damages the hull of ${target}`);
  } else if (o.expectedHullDamage < NOTHING) {
    rows.push(`- it deals no hull damage alone: it takes shields down for the card's other weapons`);
  }
  const all = o.whole;
  if (all && all.weapons > 1) {
    rows.push(
      `- in the card's whole Fire action (all ${all.weapons} weapon systems: ${num(all.expectedHullDamage)} hull damage, ${num(all.expectedShieldsRemoved)} shields stripped, kill chance ${pct(all.killProbability)}), this weapon deals ${pct(all.hullShare)} of the hull damage and strips ${pct(all.shieldsShare)} of the shields`,
    );
  }
  return rows.join('\n');
}

/**
 * One unit card: class and bases (section 3), points (class cards), slots, weapons (section 12),
 * orders (section 16) and abilities (universal rules, known abilities, launch bays).
 */
import {
  CLASSES,
  CLASS_NAMES,
  KNOWN_ORDERS,
  KNOWN_ABILITIES,
  LAUNCH_BAY,
  SMALL_CRAFT_MAX_RANGE,
  WEAPON_DAMAGE,
  WEAPON_MIN_ATTACKS,
  WEAPON_TYPES,
  STAT_NAMES,
  UNIVERSAL_RULES,
  type KnownOrder,
  type UnitClass,
} from '../rules/data';
import { count, pluralOf, withArticle } from '../rules/words';
import type { Ability, Order, UnitCard, Weapon, Field, Span } from '../model/types';
import { rankByCloseness, suggest } from '../model/yaml';
import { checkStats } from './stats';
import { type CheckContext, checkTextRanges } from './context';
import { bandList, inches, isBand, knownAbility, launchBayTier, nearestBands, universalRule, validTier } from '../rules/lookup';
import { hasStat, ruleMisfit, ruleOwners } from '../model/derived';

export function checkCard(ctx: CheckContext, card: UnitCard): void {
  const cls = card.class.value;
  const at = card.name.keySpan ?? card.name.span;
  if (card.class.value === undefined && card.class.raw.trim() !== '') {
    const s = suggest(card.class.raw, CLASS_NAMES);
    ctx.report(
      'FS-CLASS-UNKNOWN',
      `Unknown class "${card.class.raw.trim()}"${s ? `; did you mean "${s}"?` : '.'} Classes: ${CLASS_NAMES.join(', ')}`,
      card.class.span,
      s ? { replacements: [s] } : undefined,
    );
  }
  const row = cls ? CLASSES[cls] : undefined;

  if (card.points.value !== undefined) {
    if (card.points.value <= 0)
      ctx.report(
        'FS-POINTS',
        `Points must be a positive whole number, not ${card.points.value}`,
        card.points.span,
        row ? { replacements: [String(row.points)] } : undefined,
      );
    else if (row && card.points.value !== row.points) {
      ctx.report(
        'FS-POINTS-NONSTANDARD',
        `The ${cls} class card costs ${row.points} pts; this card costs ${card.points.value} (homebrew cost)`,
        card.points.span,
        { replacements: [String(row.points)] },
      );
    }
  }
  if (row && card.bases?.value !== undefined && card.bases.value !== row.bases) {
    ctx.report('FS-BASES', `${withArticle(cls!, true)} has exactly ${count(row.bases, 'base')}, not ${card.bases.value}`, card.bases.span, {
      replacements: [String(row.bases)],
    });
  }
  if (card.base?.value !== undefined && card.base.value <= 0) {
    ctx.report(
      'FS-BASE-SIZE',
      `A base size is a positive figure in mm such as ${row ? row.baseMm : 60}mm, not ${card.base.raw.trim()}`,
      card.base.span,
      row ? { replacements: [`${row.baseMm}mm`] } : undefined,
    );
  }

  checkStats(ctx, card, cls);

  // Weapons
  const weapons = card.weapons?.items ?? [];
  if (row) {
    if (weapons.length > row.weapons) {
      ctx.report(
        'FS-SLOTS-WEAPONS',
        `${withArticle(cls!, true)} has ${count(row.weapons, 'weapon system')}; this card lists ${weapons.length}`,
        card.weapons!.keySpan,
        { max: row.weapons },
      );
    } else if (weapons.length < row.weapons) {
      ctx.report(
        'FS-SLOTS-WEAPONS-UNDER',
        `${withArticle(cls!, true)} has ${count(row.weapons, 'weapon system')}; this card lists ${weapons.length}`,
        card.weapons?.keySpan ?? at,
      );
    }
  }
  for (const w of weapons) checkWeapon(ctx, w, cls);

  // Orders
  const orders = card.orders?.items ?? [];
  if (row && orders.length > row.orders) {
    const note = row.ordersNote ? ` (${row.ordersNote})` : '';
    ctx.report(
      'FS-SLOTS-ORDERS',
      `${withArticle(cls!, true)} issues at most ${count(row.orders, 'Order')}; this card lists ${orders.length}${note}`,
      card.orders!.keySpan,
      { max: row.orders },
    );
  }
  if (orders.length > 0 && card.stats && card.stats.entries.LD && !hasStat(card, 'LD') && card.stats.entries.LD.value) {
    ctx.report('FS-ORDER-NO-LD', `This unit has Orders but no LD (${STAT_NAMES.LD}): Orders need an LD roll to be issued`, card.orders!.keySpan);
  }
  const ld = card.stats?.entries.LD?.value;
  const ldDice = ld && ld.kind === 'targetDice' ? ld.dice : undefined;
  for (const o of orders) checkOrder(ctx, o, ldDice, cls);

  // Abilities
  const abilities = card.abilities?.items ?? [];
  let slotted = 0;
  for (const a of abilities) if (!universalRule(a.name.value ?? '')) slotted++;
  if (row && slotted > row.abilities) {
    ctx.report(
      'FS-SLOTS-ABILITIES',
      `${withArticle(cls!, true)} has ${count(row.abilities, 'ability slot')}; this card uses ${slotted} (universal class rules are free)`,
      card.abilities!.keySpan,
      { max: row.abilities },
    );
  }
  for (const a of abilities) checkAbility(ctx, a, card, cls);
}

function checkRangeField(ctx: CheckContext, f: Field<number>, cls: UnitClass | undefined, weapon: boolean): void {
  const n = f.value;
  if (n === undefined) return;
  const small = weapon && cls !== undefined && CLASSES[cls].smallCraft;
  if (small && n > SMALL_CRAFT_MAX_RANGE) {
    const fix = nearestBands(Math.min(n, SMALL_CRAFT_MAX_RANGE), SMALL_CRAFT_MAX_RANGE);
    ctx.report('FS-RANGE-SMALL-CRAFT', `${cls} weapons reach at most ${inches(SMALL_CRAFT_MAX_RANGE)}, not ${inches(n)}`, f.span, {
      replacements: fix.map(inches),
    });
    return;
  }
  if (!isBand(n)) {
    const near = nearestBands(n, small ? SMALL_CRAFT_MAX_RANGE : Infinity);
    ctx.report('FS-RANGE-BAND', `Range ${inches(n)} is not a range band; use ${near.map(inches).join(' or ')} (bands: ${bandList()})`, f.span, {
      replacements: near.map(inches),
    });
  }
}

function checkWeapon(ctx: CheckContext, w: Weapon, cls: UnitClass | undefined): void {
  if (w.type.value === undefined && w.type.raw.trim() !== '') {
    const s = suggest(w.type.raw, WEAPON_TYPES);
    ctx.report(
      'FS-WEAPON-TYPE',
      `Unknown weapon type "${w.type.raw.trim()}"${s ? `; did you mean ${s}?` : '.'} Types: ${WEAPON_TYPES.join(', ')} (or E, A, P, I, B)`,
      w.type.span,
      // A close typo has one fix; otherwise every type is offered, the closest first.
      { replacements: s ? [s] : rankByCloseness(w.type.raw.trim(), WEAPON_TYPES) },
    );
  }
  checkRangeField(ctx, w.range, cls, true);
  const d = w.damage.value;
  if (d !== undefined && (d < WEAPON_DAMAGE.min || d > WEAPON_DAMAGE.max)) {
    ctx.report('FS-WEAPON-DAMAGE', `Damage ${d} is outside ${WEAPON_DAMAGE.min} to ${WEAPON_DAMAGE.max}`, w.damage.span, {
      replacements: [String(Math.min(WEAPON_DAMAGE.max, Math.max(WEAPON_DAMAGE.min, d)))],
    });
  }
  const a = w.attacks.value;
  if (a !== undefined && a < WEAPON_MIN_ATTACKS) {
    ctx.report('FS-WEAPON-ATTACKS', `A weapon makes at least ${count(WEAPON_MIN_ATTACKS, 'attack')}, not ${a}`, w.attacks.span, {
      replacements: [String(WEAPON_MIN_ATTACKS)],
    });
  }
}

export function knownOrder(name: string) {
  const n = name.trim().toLowerCase();
  return KNOWN_ORDERS.find((o) => o.name.toLowerCase() === n);
}

function checkOrder(ctx: CheckContext, o: Order, ldDice: number | undefined, cls: UnitClass | undefined): void {
  const name = o.name.value ?? '';
  const known = knownOrder(name);
  if (known && cls) checkOrderClass(ctx, known, cls, o.name.span);
  if (o.form === 'string' && name && !known) {
    const s = suggest(
      name,
      KNOWN_ORDERS.map((k) => k.name),
    );
    ctx.report(
      'FS-ORDER-UNKNOWN',
      `"${name}" is not a known order${s ? `; did you mean "${s}"?` : '.'} Give a homebrew order as a mapping with name, difficulty and effect`,
      o.name.span,
      s ? { replacements: [s] } : undefined,
    );
  }
  const diff = o.difficulty?.value ?? (o.difficulty ? undefined : known?.difficulty);
  if (o.difficulty?.value !== undefined && o.difficulty.value < 1) {
    ctx.report(
      'FS-ORDER-DIFFICULTY',
      `An order's difficulty is the number of LD successes needed: a whole number of at least 1, not ${o.difficulty.value}`,
      o.difficulty.span,
      { replacements: ['1'] },
    );
  } else if (diff !== undefined && ldDice !== undefined && diff > ldDice) {
    ctx.report(
      'FS-ORDER-UNREACHABLE',
      `Difficulty ${diff} can never succeed: this unit rolls ${count(ldDice, 'LD die', 'LD dice')}`,
      o.difficulty?.span ?? o.name.span,
    );
  }
  if (o.range) checkRangeField(ctx, o.range, undefined, false);
  if (o.effect) checkTextRanges(ctx, o.effect.span, 'the effect');
}

/** An order only some classes may issue (Recover Craft: Carriers, section 6). */
function checkOrderClass(ctx: CheckContext, order: KnownOrder, cls: UnitClass, span: Span): void {
  const only = order.onlyClasses;
  if (!only || only.classes.includes(cls)) return;
  const owners = only.classes.map((c) => pluralOf(c)).join(' and ');
  ctx.report('FS-ORDER-CLASS', `${order.name} is an order of ${owners} only (section ${only.section}: ${only.why}); ${withArticle(cls)} cannot issue it`, span);
}

function checkAbility(ctx: CheckContext, a: Ability, card: UnitCard, cls: UnitClass | undefined): void {
  const name = a.name.value ?? '';
  const span = a.name.span;
  if (a.range) checkRangeField(ctx, a.range, undefined, false);
  if (a.text) checkTextRanges(ctx, a.text.span, 'the ability text');
  if (!name) return;
  const rule = universalRule(name);
  if (rule) {
    const misfit = cls ? ruleMisfit(rule, card, cls) : undefined;
    if (misfit) {
      const why = rule.requiresStats ? ` (section ${rule.requiresStats.section})` : '';
      ctx.report('FS-UNIVERSAL-RULE-CLASS', `${rule.name} is a universal rule of ${ruleOwners(rule)}${why}; ${misfit}`, span);
    }
    return;
  }
  const tier = launchBayTier(name);
  if (tier !== undefined) {
    if (!validTier(tier))
      ctx.report('FS-LAUNCH-BAY-TIER', `A Launch Bay tier is a whole number of at least ${LAUNCH_BAY.minTier}, not ${tier}`, span, {
        replacements: [`Launch Bay Tier ${Math.max(LAUNCH_BAY.minTier, Math.round(tier))}`],
      });
    return;
  }
  if (/^launch bay/i.test(name) && a.form === 'string' && !knownAbility(name)) {
    ctx.report('FS-LAUNCH-BAY-TIER', `Write a launch bay as "Launch Bay Tier N" (N at least 1) or "Launch Bays (Reserves)", not "${name}"`, span, {
      replacements: ['Launch Bay Tier 1'],
    });
    return;
  }
  const known = knownAbility(name);
  if (known) {
    if (known.requiresStat && card.stats && !hasStat(card, known.requiresStat)) {
      ctx.report('FS-ABILITY-REQUIRES', `${known.name} needs ${known.requiresStat} (${STAT_NAMES[known.requiresStat]}); this unit has none`, span);
    }
    return;
  }
  const order = knownOrder(name);
  if (order) {
    // An order written under abilities: on a class that may not issue it, that is the problem.
    if (cls && order.onlyClasses && !order.onlyClasses.classes.includes(cls)) checkOrderClass(ctx, order, cls, span);
    else if (a.form === 'string') ctx.report('FS-ABILITY-UNKNOWN', `${order.name} is an order, not an ability: list it under "orders"`, span);
    return;
  }
  if (a.form === 'string') {
    const all = [...KNOWN_ABILITIES.map((k) => k.name), ...UNIVERSAL_RULES.map((r) => r.name), 'Launch Bay Tier 1'];
    const s = suggest(name, all);
    ctx.report(
      'FS-ABILITY-UNKNOWN',
      `"${name}" is not a known ability${s ? `; did you mean "${s}"?` : '.'} Give a homebrew ability as a mapping with name and text`,
      span,
      s ? { replacements: [s] } : undefined,
    );
  }
}

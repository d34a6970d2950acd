/**
 * Hover: what the thing under the cursor means, with the card's own figures explained and the
 * rulebook section quoted (number and title). Every piece of file text is escaped (`md`); rule text
 * comes escaped from rules/text.ts.
 */
import type {
  Ability,
  CollectionDocument,
  FabledDocument,
  FactionDocument,
  Field,
  FleetDocument,
  FleetEntry,
  Order,
  Span,
  StatEntry,
  UnitCard,
  Weapon,
} from '../model/types';
import type { Workspace } from '../workspace';
import {
  CLASSES,
  DICE,
  DOCTRINES,
  DOGFIGHTERS,
  FIRE,
  GAME_SIZES,
  GAME_SIZE_SECTIONS,
  KNOWN_ORDERS,
  LAUNCH_BAY,
  ORDERS_SECTION,
  PRECISION_STRIKE,
  RANGE_BANDS,
  RANGE_SECTION,
  STATS,
  STAT_NAMES,
  WEAPON_TYPES,
  WEAPON_TYPE_ABBREVIATIONS,
  WEAPON_TYPE_SECTION,
  COMMAND_BOARD as BOARD,
  OBJECTIVE_RANGE,
  SMALL_CRAFT_MAX_RANGE,
  type StatName,
  type UnitClass,
  type WeaponType,
} from '../rules/data';
import { classCard, classCardByName, classCardMarkdown, escapeMarkdown, section, sectionMarkdown, sectionTitle, termSection } from '../rules/text';
import { knownAbility, launchBayTier, nearestBands, universalRule, validTier } from '../rules/lookup';
import { bayCapacity, cpPerRound, ruleOwners } from '../model/derived';
import { article, count, noun, pointsLeft, withArticle } from '../rules/words';
import { atLeast, cardAt, md, num, pSuccess, pct, statLine, within } from './shared';
import { fieldOf, type FieldOwner } from '../model/fields';
import { fleetSummary, pointsLabel } from './fleetSummary';
import { weaponOddsMarkdown } from './odds';
import { pointsEstimateParts } from './pointsEstimate';
import { isExampleUri } from '../examples/index';
import type { Settings } from '../api';
import { activeCollection, ownedCounts, ownedKey, shortfalls } from '../collection';

export interface HoverResult {
  markdown: string;
  span: Span;
}

/** Section numbers of the places a hover points to that data.ts carries as text, not as figures. */
const SEE = { movement: 7, shieldRecharge: 10, boarding: 13, objectives: 20, classes: 3 } as const;

function quote(n: number | string, opts: Parameters<typeof sectionMarkdown>[1] = {}): string {
  return sectionMarkdown(n, opts) ?? '';
}

function seeAlso(...ns: (number | string)[]): string {
  const t = ns.map((n) => sectionTitle(n)).filter((x): x is string => !!x);
  return t.length ? `See also ${t.map((x) => escapeMarkdown(x)).join(', ')}.` : '';
}

function join(...parts: (string | undefined | false)[]): string {
  return parts.filter((p): p is string => !!p && p.trim() !== '').join('\n\n');
}

/**
 * A field's hover head: `**key**` or `**key: value**`, and what the key holds in the words of the
 * format's field table (model/fields.ts), which completion and the JSON Schemas show too.
 */
function fieldHead(owner: FieldOwner, key: string, value?: string | number): string {
  return join(`**${key}${value !== undefined ? `: ${value}` : ''}**`, fieldOf(owner, key)?.doc);
}

const RULE = '\n\n---\n\n';

function result(span: Span, head: string, rule?: string): HoverResult {
  return { span, markdown: rule ? head + RULE + rule : head };
}

export function hover(doc: FabledDocument, ws: Workspace, off: number, settings: Settings): HoverResult | undefined {
  try {
    switch (doc.kind) {
      case 'fleet':
        return fleetHover(doc, ws, off);
      case 'faction':
        return factionHover(doc, ws, off) ?? cardHover(doc, ws, off, settings);
      case 'unit':
        return keyHover(doc.faction, off, () => factionKey('unitFile', doc.faction, ws)) ?? cardHover(doc, ws, off, settings);
      case 'collection':
        return collectionHover(doc, ws, off);
    }
  } catch {
    // A hover must never take the server down; a missing hover is the safe failure.
    return undefined;
  }
}

/** The hover of a key or of its value, when the offset is on either. */
function keyHover<T>(f: Field<T> | undefined, off: number, build: () => string | undefined): HoverResult | undefined {
  if (!f) return undefined;
  const span = within(f.keySpan, off) ? f.keySpan! : within(f.span, off) && f.span.end > f.span.start ? f.span : undefined;
  if (!span) return undefined;
  const m = build();
  return m ? { span, markdown: m } : undefined;
}

function factionKey(owner: FieldOwner, f: Field<string>, ws: Workspace): string | undefined {
  const name = f.value;
  if (!name) return undefined;
  const cards = ws.cardsOf(name);
  return join(`**Faction ${md(name)}**`, fieldOf(owner, 'faction')?.doc, `${cards.length} ${cards.length === 1 ? 'card' : 'cards'} in the workspace.`);
}

// ------------------------------------------------------------------------------------------
// Cards

function cardHover(doc: FabledDocument, ws: Workspace, off: number, settings: Settings): HoverResult | undefined {
  const card = cardAt(doc, off);
  if (!card) return undefined;
  const cls = card.class.value;
  const row = cls ? CLASSES[cls] : undefined;

  if (within(card.name.span, off) || within(card.name.keySpan, off)) {
    return result(within(card.name.span, off) ? card.name.span : card.name.keySpan!, cardSummary(card, doc.uri));
  }
  if (within(card.class.span, off) || within(card.class.keySpan, off)) {
    return result(
      within(card.class.span, off) ? card.class.span : card.class.keySpan!,
      classHover(cls, card.class.raw),
      quote(SEE.classes, { noSummary: true, inPlay: true }),
    );
  }
  if (within(card.points.span, off) || within(card.points.keySpan, off)) {
    const p = card.points.value;
    // The estimate (and a measured battle price) first, where a designer looks; its details last.
    const estimate = pointsEstimateParts(card, ws);
    const head = join(
      fieldHead('card', 'points', p ?? '?'),
      estimate.main,
      row
        ? `The ${cls} class card (${md(row.card)}) costs ${row.points} pts${p !== undefined && p !== row.points ? `; this card costs ${p} (${p > row.points ? '+' : ''}${p - row.points}, a homebrew cost)` : ''}.`
        : undefined,
      'A fleet adds up its cards\u2019 points (each copy, embarked units included) against its limit.',
      estimate.advanced,
    );
    // A card's standard cost is printed on its class card (no numbered section prices cards).
    return result(spanOf(card.points, off), head, cls ? classCardMarkdown(cls) : undefined);
  }
  if (card.bases && (within(card.bases.span, off) || within(card.bases.keySpan, off))) {
    const head = join(
      fieldHead('card', 'bases', card.bases.value ?? '?'),
      row ? `${withArticle(cls!, true)} has exactly ${count(row.bases, 'base')}.` : undefined,
    );
    return result(spanOf(card.bases, off), head, quote(SEE.classes));
  }
  if (card.base && (within(card.base.span, off) || within(card.base.keySpan, off))) {
    return result(spanOf(card.base, off), baseHover(card, cls));
  }
  const stats = card.stats;
  if (stats) {
    for (const e of Object.values(stats.entries)) {
      if (e && (within(e.span, off) || within(e.keySpan, off))) {
        return result(within(e.span, off) ? e.span : e.keySpan, statHover(e, card, cls), statRule(e.stat));
      }
    }
    if (within(stats.keySpan, off)) {
      return result(
        stats.keySpan,
        join(fieldHead('card', 'stats'), `This card's stat line: ${md(statLine(card))}`),
        quote(STATS.M.section, { inPlay: true, example: true }),
      );
    }
  }
  if (card.weapons) {
    if (within(card.weapons.keySpan, off)) {
      const n = card.weapons.items.length;
      return result(
        card.weapons.keySpan,
        join(fieldHead('card', 'weapons'), row ? `${n} of the ${cls}'s ${count(row.weapons, 'weapon system')}.` : `${count(n, 'weapon system')}.`),
        quote(SEE.classes, { noSummary: true, inPlay: true }),
      );
    }
    for (const w of card.weapons.items) {
      if (within(w.span, off)) return weaponHover(w, card, cls, off, ws, settings);
    }
  }
  if (card.orders) {
    if (within(card.orders.keySpan, off)) {
      const n = card.orders.items.length;
      return result(
        card.orders.keySpan,
        join(
          fieldHead('card', 'orders'),
          row ? `${n} of the ${cls}'s ${count(row.orders, 'Order')}.` : undefined,
          row?.ordersNote ? `_${md(row.ordersNote)}_` : undefined,
        ),
        quote(ORDERS_SECTION, { inPlay: true }),
      );
    }
    for (const o of card.orders.items) if (within(o.span, off)) return orderHover(o, card, off, doc.text);
  }
  if (card.abilities) {
    if (within(card.abilities.keySpan, off)) {
      const slotted = card.abilities.items.filter((a) => !universalRule(a.name.value ?? '')).length;
      return result(
        card.abilities.keySpan,
        join(
          fieldHead('card', 'abilities'),
          row ? `${slotted} of the ${cls}'s ${count(row.abilities, 'ability slot')} used; universal class rules are free.` : undefined,
        ),
        quote(SEE.classes, { noSummary: true, inPlay: true }),
      );
    }
    for (const a of card.abilities.items) if (within(a.span, off)) return abilityHover(a, card, off, doc.text);
  }
  return undefined;
}

function spanOf<T>(f: Field<T>, off: number): Span {
  return within(f.span, off) && f.span.end > f.span.start ? f.span : (f.keySpan ?? f.span);
}

/** A card's stat line as a Markdown table (values escaped). */
function statTable(card: UnitCard): string {
  const stats = ['M', 'BS', 'D', 'SH', 'AC', 'HP', 'LD', 'CR', 'T'] as const;
  const cell = (s: string) => md(s).replace(/\n/g, ' ') || ' ';
  return [
    `| ${stats.join(' | ')} |`,
    `|${stats.map(() => ':-:').join('|')}|`,
    `| ${stats.map((s) => cell(card.stats?.entries[s]?.raw ?? '?')).join(' | ')} |`,
  ].join('\n');
}

function weaponLine(w: Weapon): string {
  return `${w.name.value ?? '?'} — ${w.type.value ?? w.type.raw ?? '?'}, ${w.range.value !== undefined ? `${w.range.value}"` : '?'}, ${w.damage.value ?? '?'}, ${w.attacks.value ?? '?'}`;
}

export function cardSummary(card: UnitCard, uri?: string): string {
  const cls = card.class.value;
  const name = card.name.value ?? '(unnamed card)';
  const parts = [
    `**${md(name)}** — ${md(cls ?? card.class.raw ?? '?')}, ${card.points.value ?? '?'} pts${card.faction.value ? ` (${md(card.faction.value)})` : ''}`,
    statTable(card),
  ];
  const ws = card.weapons?.items ?? [];
  if (ws.length) parts.push(ws.map((w) => `- ${md(weaponLine(w))}`).join('\n'));
  const extras = [...(card.orders?.items ?? []).map((o) => `Order: ${o.name.value ?? '?'}`), ...(card.abilities?.items ?? []).map((a) => a.name.value ?? '?')];
  if (extras.length) parts.push(md(extras.join(' · ')));
  if (uri) parts.push(isExampleUri(uri) ? '_A bundled example card: the workspace has no card of this faction._' : `_${md(fileName(uri))}_`);
  return parts.join('\n\n');
}

/** The file name of a uri, for showing (a malformed escape shows as written). */
function fileName(uri: string): string {
  const last = uri.replace(/[?#].*$/, '').replace(/^.*\//, '');
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function classHover(cls: UnitClass | undefined, raw: string): string {
  if (!cls) return join(`**class: ${md(raw)}**`, 'Not a class.', fieldOf('card', 'class')?.doc);
  const r = CLASSES[cls];
  const row = `${count(r.bases, 'base')} · ${count(r.weapons, 'weapon system')} · ${count(r.orders, 'order')} · ${count(r.abilities, 'ability')} · ${r.points} pts standard · ${r.baseMm}mm base${r.baseIsHouseValue ? ' (house default)' : ''}`;
  return join(
    `**${md(cls)}**`,
    md(row),
    r.ordersNote ? `_${md(r.ordersNote)}_` : undefined,
    r.combinedShields ? 'Combined Shields: SH is per base; the bases share one pool.' : undefined,
    classCardMarkdown(cls),
  );
}

function baseHover(card: UnitCard, cls: UnitClass | undefined): string {
  const mm = card.base?.value;
  const row = cls ? CLASSES[cls] : undefined;
  return join(
    fieldHead('card', 'base', mm !== undefined ? `${mm}mm` : md(card.base?.raw ?? '?')),
    row ? `The ${cls} default is ${row.baseMm}mm${row.baseIsHouseValue ? ' (a house value; the rulebook leaves it open)' : ''}.` : undefined,
    seeAlso(DOGFIGHTERS.section, PRECISION_STRIKE.section),
  );
}

// ------------------------------------------------------------------------------------------
// Stats

function statRule(stat: StatName): string {
  const extra: Partial<Record<StatName, number | string>> = {
    M: SEE.movement,
    SH: SEE.shieldRecharge,
    LD: ORDERS_SECTION,
    CR: SEE.boarding,
    T: SEE.objectives,
  };
  return join(
    quote(STATS[stat].section, { inPlay: true, example: stat === 'LD' || stat === 'CR' }),
    extra[stat] !== undefined ? seeAlso(extra[stat]) : undefined,
  );
}

function statHover(e: StatEntry, card: UnitCard, cls: UnitClass | undefined): string {
  const head = `**${e.stat} — ${STAT_NAMES[e.stat]}: ${md(e.raw || '(empty)')}**`;
  const v = e.value;
  if (!v) return join(head, 'This value cannot be read; see the stat limits below.');
  if (v.kind === 'none') return join(head, `The unit does not possess ${STAT_NAMES[e.stat]}.`);
  const bases = card.bases?.value ?? (cls ? CLASSES[cls].bases : 1);
  const combined = cls ? CLASSES[cls].combinedShields : false;
  let text = '';
  switch (v.kind) {
    case 'sticks':
      text =
        v.parts.length === 2
          ? `Moves with ${withArticle(`${v.parts[0]}"`)} stick, and may combine it with ${withArticle(`${v.parts[1]}"`)} stick into one continuous path (${v.parts[0]! + v.parts[1]!}" in all).`
          : `Moves up to ${v.parts[0]}" with one stick.`;
      break;
    case 'target': {
      const p = pSuccess(v.target);
      const what = e.stat === 'BS' ? 'Each attack hits' : e.stat === 'D' ? 'Each normal hit is dodged' : 'Each hit that gets past the shields is saved';
      text = `${what} on a d10 roll of ${v.target}+: ${pct(p)} per die (natural ${DICE.autoFailAtOrBelow} or less always fails; a natural ${DICE.critical} always succeeds${e.stat === 'BS' ? ' and is a Critical Hit' : ''}).`;
      if (e.stat === 'D') text += ' Critical Hits cannot be dodged.';
      if (e.stat === 'AC')
        text += ` Piercing weapons make it ${FIRE.piercingArmourPenalty} worse (${FIRE.piercingCritArmourPenalty} on a Critical Hit); Brace makes it ${FIRE.braceBonus} better.`;
      if (e.stat === 'BS') text += ` Cover makes it ${FIRE.coverPenalty} worse; Aim ${FIRE.aimBonus} better, never better than ${DICE.bestTarget}+.`;
      break;
    }
    case 'count':
      if (e.stat === 'SH') {
        text = `Absorbs ${count(v.n, 'hit')} before hits reach the armour (an Ion hit removes ${FIRE.ionShieldsPerHit}, an Ion Critical Hit ${FIRE.ionShieldsPerCrit}).`;
        if (combined && bases > 1)
          text += ` Combined Shields: ${v.n} per base, a pool of ${v.n * bases} for ${bases} bases; the pool's maximum falls as bases are destroyed.`;
      } else if (e.stat === 'HP') {
        text = bases > 1 ? `${count(v.n, 'hull point')} per base: ${v.n * bases} across ${count(bases, 'base')}.` : `${count(v.n, 'hull point')}.`;
      } else {
        text = `Tonnage ${v.n}: adds ${v.n} to objective control within ${OBJECTIVE_RANGE}" at the end of each round, and rams with ${count(v.n, 'die')}.`;
      }
      break;
    case 'targetDice': {
      const p = pSuccess(v.target);
      const chances = Array.from({ length: Math.min(v.dice, 6) }, (_, i) => `${i + 1}+: ${pct(atLeast(v.target, v.dice, i + 1))}`).join(', ');
      text = `Roll ${count(v.dice, 'die')}; each ${v.target}+ succeeds (${pct(p)} per die), ${num(v.dice * p)} successes on average. Chance of at least ${chances}.`;
      if (e.stat === 'LD') {
        const orders = card.orders?.items ?? [];
        const withDiff = orders.map((o) => ({ o, d: orderDifficulty(o) })).filter((x) => x.d !== undefined);
        if (withDiff.length)
          text +=
            ' ' +
            withDiff.map((x) => `${md(x.o.name.value ?? '?')} (difficulty ${x.d}) succeeds ${pct(atLeast(v.target, v.dice, x.d!))} of the time.`).join(' ');
      }
      break;
    }
  }
  return join(head, text);
}

function orderDifficulty(o: Order): number | undefined {
  if (o.difficulty?.value !== undefined) return o.difficulty.value;
  return KNOWN_ORDERS.find((k) => k.name.toLowerCase() === o.name.value?.trim().toLowerCase())?.difficulty;
}

// ------------------------------------------------------------------------------------------
// Weapons, orders, abilities

/** The rulebook's text for one weapon type, cut from section 12's list of types. */
export function weaponTypeText(type: WeaponType): string | undefined {
  const s = section(WEAPON_TYPE_SECTION);
  if (!s) return undefined;
  const abbr = Object.entries(WEAPON_TYPE_ABBREVIATIONS).find(([, t]) => t === type)?.[0];
  const all = [s.rule, s.inPlay].join(' ');
  const re = new RegExp(`${abbr} — ${type}:\\s*(.*?)(?=\\s+[EAPIB] — (?:${WEAPON_TYPES.join('|')}):|$)`);
  const m = re.exec(all);
  return m ? m[1]!.trim() : undefined;
}

/** A range's hover head; the weapon's field sentence lists the bands, the others' do not. */
function rangeText(owner: 'weapon' | 'order' | 'ability', n: number | undefined, raw: string): string {
  const band = n !== undefined && (RANGE_BANDS as readonly number[]).includes(n);
  return join(
    fieldHead(owner, 'range', n === undefined ? md(raw) : `${n}"`),
    n === undefined
      ? undefined
      : band
        ? `${n}" is a standard range band.`
        : `${n}" is not a range band; the nearest: ${nearestBands(n)
            .map((b) => `${b}"`)
            .join(' or ')}.`,
    owner === 'weapon' ? undefined : `Bands: ${RANGE_BANDS.map((b) => `${b}"`).join(' ')}.`,
  );
}

function weaponHover(w: Weapon, card: UnitCard, cls: UnitClass | undefined, off: number, ws: Workspace, settings: Settings): HoverResult {
  const rule = quote(WEAPON_TYPE_SECTION, { example: true });
  if (within(w.type.span, off) || within(w.type.keySpan, off)) {
    const t = w.type.value;
    const head = t
      ? join(`**${t}** weapon`, md(weaponTypeText(t) ?? ''))
      : join(`**type: ${md(w.type.raw)}**`, 'Not a weapon type.', fieldOf('weapon', 'type')?.doc);
    return result(spanOf(w.type, off), head, quote(WEAPON_TYPE_SECTION, { inPlay: true }));
  }
  if (within(w.range.span, off) || within(w.range.keySpan, off)) {
    const small = cls ? CLASSES[cls].smallCraft : false;
    const head = join(rangeText('weapon', w.range.value, w.range.raw), small ? `${cls} weapons reach at most ${SMALL_CRAFT_MAX_RANGE}".` : undefined);
    return result(spanOf(w.range, off), head, quote(RANGE_SECTION, { example: true }));
  }
  if (within(w.damage.span, off) || within(w.damage.keySpan, off)) {
    return result(
      spanOf(w.damage, off),
      join(fieldHead('weapon', 'damage', w.damage.value ?? md(w.damage.raw)), "All of a hit's damage goes to one base; damage beyond that base's HP is lost."),
      rule,
    );
  }
  if (within(w.attacks.span, off) || within(w.attacks.keySpan, off)) {
    const extra =
      cls === 'Fighter'
        ? ' Dogfighters: the Fighter weapon attacks once per remaining base instead (twice against small bases).'
        : cls === 'Bomber'
          ? ' Precision Strike: once per remaining base instead (twice against large bases).'
          : '';
    return result(
      spanOf(w.attacks, off),
      join(fieldHead('weapon', 'attacks', w.attacks.value ?? md(w.attacks.raw)), `Dice rolled to hit with this weapon system.${extra}`),
      rule,
    );
  }
  // The weapon as a whole (its name or the line).
  const span = within(w.name.span, off) ? w.name.span : w.span;
  const odd = settings.referenceTarget ? weaponOddsMarkdown(ws, card, w, settings.referenceTarget) : undefined;
  const typeText = w.type.value ? weaponTypeText(w.type.value) : undefined;
  return result(span, join(`**${md(w.name.value ?? 'Weapon')}** — ${md(weaponLine(w))}`, typeText ? `${w.type.value}: ${md(typeText)}` : undefined, odd), rule);
}

function orderHover(o: Order, card: UnitCard, off: number, text: string): HoverResult | undefined {
  if (o.effect && within(o.effect.span, off)) return termHoverAt(text, off);
  const known = KNOWN_ORDERS.find((k) => k.name.toLowerCase() === o.name.value?.trim().toLowerCase());
  const ld = card.stats?.entries.LD?.value;
  const diff = orderDifficulty(o);
  const chance =
    ld && ld.kind === 'targetDice' && diff !== undefined
      ? `With LD ${ld.target}/${ld.dice}, difficulty ${diff} succeeds ${pct(atLeast(ld.target, ld.dice, diff))} of the time.`
      : undefined;
  if (o.range && (within(o.range.span, off) || within(o.range.keySpan, off))) {
    return result(spanOf(o.range, off), rangeText('order', o.range.value, o.range.raw), quote(RANGE_SECTION, { example: true }));
  }
  if (o.difficulty && (within(o.difficulty.span, off) || within(o.difficulty.keySpan, off))) {
    return result(
      spanOf(o.difficulty, off),
      join(
        fieldHead('order', 'difficulty', o.difficulty.value ?? md(o.difficulty.raw)),
        chance,
        known?.difficulty !== undefined && known.difficulty !== o.difficulty.value
          ? `The rulebook's ${md(known.name)} has difficulty ${known.difficulty}.`
          : undefined,
      ),
      quote(ORDERS_SECTION, { example: true }),
    );
  }
  const span = within(o.name.span, off) ? o.name.span : o.span;
  const cardText = known ? cardSourceText(known.section, known.name) : undefined;
  const head = join(
    `**Order: ${md(o.name.value ?? '?')}**`,
    known ? md(cardText ?? known.summary) : o.effect?.value ? md(o.effect.value) : 'Not an order of the rulebook (homebrew).',
    known?.difficulty !== undefined
      ? `Rulebook difficulty: ${known.difficulty}${known.range !== undefined ? `, range ${known.range}"` : ''} (${md(known.section)}).`
      : known
        ? `From ${md(sectionTitle(known.section) ?? known.section)}.`
        : undefined,
    chance,
  );
  // A rulebook order is quoted where it is printed: its class card, or section 16's examples.
  const printed = known ? sourceCardMarkdown(known.section) : undefined;
  if (printed) return result(span, join(head, seeAlso(ORDERS_SECTION)), printed);
  return result(span, head, quote(ORDERS_SECTION, { example: known?.section === ORDERS_SECTION }));
}

/** The class card a data.ts source names ("Radiant Court card", "Carrier card"), as hover Markdown. */
function sourceCardMarkdown(source: string): string | undefined {
  const m = /^(.*) card$/.exec(source);
  const c = m ? classCardByName(m[1]!) : undefined;
  return c ? classCardMarkdown(c.class) : undefined;
}

/** The text a class card prints for an order or ability ("Destroyer card" -> the Destroyer card's item). */
function cardSourceText(source: string, name: string): string | undefined {
  const m = /^(.*) card$/.exec(source);
  if (!m) return undefined;
  const c = classCardByName(m[1]!);
  const item = [...(c?.orders ?? []), ...(c?.abilities ?? [])].find((i) => i.name.toLowerCase().startsWith(name.toLowerCase()));
  return item?.text;
}

function abilityHover(a: Ability, card: UnitCard, off: number, text: string): HoverResult {
  if (a.range && (within(a.range.span, off) || within(a.range.keySpan, off))) {
    return result(spanOf(a.range, off), rangeText('ability', a.range.value, a.range.raw), quote(RANGE_SECTION, { example: true }));
  }
  if (a.text && within(a.text.span, off)) {
    const t = termHoverAt(text, off);
    if (t) return t;
  }
  const span = within(a.name.span, off) ? a.name.span : a.span;
  const name = a.name.value ?? '';
  const cls = card.class.value;
  const uni = universalRule(name);
  if (uni) {
    const owners = ruleOwners(uni);
    const head = join(`**${md(uni.name)}** (universal class rule: free, takes no ability slot)`, md(uni.summary), `Belongs to ${md(owners)}.`);
    const printed = cls && classCard(cls)?.description.toLowerCase().includes(uni.name.toLowerCase()) ? classCardMarkdown(cls) : undefined;
    return result(span, head, /^\d+$/.test(uni.section) ? quote(uni.section, { inPlay: true }) : printed);
  }
  const tier = launchBayTier(name);
  if (tier !== undefined) {
    const head = join(
      `**Launch Bay Tier ${tier}**`,
      !validTier(tier)
        ? `Not a tier: a Launch Bay tier is a whole number of at least ${LAUNCH_BAY.minTier}.`
        : `May begin the battle with ${tier * LAUNCH_BAY.fightersPerTier} ${LAUNCH_BAY.tierCarries.join('/')} ${noun(tier * LAUNCH_BAY.fightersPerTier, 'unit')} embarked (never Bombers).`,
    );
    return result(span, head, quote(LAUNCH_BAY.section));
  }
  const known = knownAbility(name);
  if (known) {
    const text = cardSourceText(known.section, known.name.replace(/\s*\(.*\)$/, '')) ?? known.summary;
    const head = join(
      `**${md(known.name)}**`,
      md(text),
      known.requiresStat ? `Needs ${known.requiresStat} (${STAT_NAMES[known.requiresStat]}).` : undefined,
      `From ${md(sectionTitle(known.section) ?? known.section)}.`,
    );
    const rule = /^\d+$/.test(known.section) ? quote(known.section, { inPlay: true }) : sourceCardMarkdown(known.section);
    return result(span, head, rule);
  }
  return result(span, join(`**${md(name || 'Ability')}**`, a.text?.value ? md(a.text.value) : 'Not an ability of the rulebook; give it a `text`.'));
}

// ------------------------------------------------------------------------------------------
// Fleets

function fleetHover(doc: FleetDocument, ws: Workspace, off: number): HoverResult | undefined {
  const summary = () => fleetSummary(doc, ws);
  if (within(doc.points.span, off) || within(doc.points.keySpan, off)) {
    const s = summary();
    const size = s.gameSize;
    const head = join(
      `**${pointsLabel(s)}**`,
      s.limit !== undefined && s.remaining !== undefined ? `${pointsLeft(s.remaining)}.` : 'The points limit is a positive whole number.',
      s.unknownUnits.length ? `Not counted (unknown cards): ${s.unknownUnits.map(md).join(', ')}.` : undefined,
      size
        ? `${md(size.name)} game: ${md(size.table)} table, ${size.objectives.min === size.objectives.max ? size.objectives.min : `${size.objectives.min}–${size.objectives.max}`} objectives${size.terrain ? `, ${md(size.terrain)} of terrain` : ''}.`
        : fieldOf('fleet', 'points')?.doc,
    );
    return result(spanOf(doc.points, off), head, quote(GAME_SIZE_SECTIONS[0]!));
  }
  if (doc.objectives && (within(doc.objectives.span, off) || within(doc.objectives.keySpan, off))) {
    const lim = doc.points.value;
    const size = GAME_SIZES.find((g) => g.points === lim);
    const head = join(
      fieldHead('fleet', 'objectives', doc.objectives.value ?? md(doc.objectives.raw)),
      size
        ? `Recommended for ${withArticle(`${size.points} pts`)} ${md(size.name)} game: ${size.objectives.min === size.objectives.max ? size.objectives.min : `${size.objectives.min}–${size.objectives.max}`}.`
        : undefined,
    );
    return result(spanOf(doc.objectives, off), head, quote(SEE.objectives, { inPlay: true }));
  }
  const fk = keyHover(doc.faction, off, () => factionKey('fleet', doc.faction, ws));
  if (fk) return fk;
  if (within(doc.name.span, off) || within(doc.name.keySpan, off)) {
    const s = summary();
    return result(spanOf(doc.name, off), join(`**${md(s.name || 'Fleet')}** — ${md(s.faction)}`, pointsLabel(s), `${count(s.entries.length, 'entry')}.`));
  }
  const faction = doc.faction.value;
  for (const entry of doc.units?.items ?? []) {
    if (!within(entry.span, off)) continue;
    return entryHover(doc, entry, ws, off, faction);
  }
  return undefined;
}

function entryHover(doc: FleetDocument, entry: FleetEntry, ws: Workspace, off: number, faction: string | undefined): HoverResult | undefined {
  if (entry.embark) {
    if (within(entry.embark.keySpan, off)) {
      const host = ws.card(entry.unit.value, faction, 'own');
      const cap = host ? bayCapacity(host.card) : undefined;
      const text = cap
        ? cap.tierFighters || cap.reserves
          ? `${md(host!.card.name.value ?? '')} carries ${[cap.tierFighters ? `${count(cap.tierFighters, 'Fighter unit')} (Launch Bay Tier)` : '', cap.reserves ? `${count(cap.reserves, 'squadron')} of ${LAUNCH_BAY.carrierCarries.join(' or ')} (${md(LAUNCH_BAY.reservesAbility)})` : ''].filter(Boolean).join(' and ')}.`
          : `${md(host!.card.name.value ?? '')} has no Launch Bay.`
        : undefined;
      return result(entry.embark.keySpan, join(fieldHead('fleetEntry', 'embark'), text), quote(LAUNCH_BAY.section));
    }
    for (const item of entry.embark.items) {
      if (within(item.span, off)) return cardRefHover(item, ws, faction, 1, off) ?? undefined;
    }
  }
  if (within(entry.count.span, off) && entry.count.span.end > entry.count.span.start) {
    const ref = ws.card(entry.unit.value, faction, 'own');
    const s = fleetSummary(doc, ws);
    const e = s.entries[doc.units!.items.indexOf(entry)];
    return result(
      entry.count.span,
      join(
        fieldHead('fleetEntry', 'count', entry.count.value ?? md(entry.count.raw)),
        ref && e?.points !== undefined
          ? `${e.count} × ${e.points} pts = ${e.count * e.points} pts${entry.embark ? ' (each copy carries the listed units)' : ''}.`
          : undefined,
      ),
    );
  }
  if (within(entry.unit.span, off) || within(entry.unit.keySpan, off) || within(entry.count.keySpan, off)) {
    return cardRefHover(entry.unit, ws, faction, entry.count.value ?? 1, off, entry);
  }
  return undefined;
}

function cardRefHover(f: Field<string>, ws: Workspace, faction: string | undefined, count: number, off: number, entry?: FleetEntry): HoverResult | undefined {
  const span = within(f.span, off) ? f.span : (f.keySpan ?? f.span);
  const name = f.value;
  if (!name) return undefined;
  const ref = ws.card(name, faction, 'ownFirst');
  if (!ref) return result(span, join(`**${md(name)}**`, `No card of that name${faction ? ` in ${md(faction)}` : ''}.`));
  const p = ref.points ?? 0;
  const embarked = (entry?.embark?.items ?? []).map((i) => ws.card(i.value, faction, 'own'));
  const embarkedPts = embarked.reduce((t, c) => t + (c?.points ?? 0), 0);
  const each = p + embarkedPts;
  const line = entry ? `${count} × ${each} pts = ${count * each} pts${embarkedPts ? ` (${p} + ${embarkedPts} embarked, each copy)` : ''}` : `${p} pts`;
  const other =
    faction !== undefined && ref.faction.toLowerCase() !== faction.toLowerCase()
      ? `_${article(ref.faction, true)} ${md(ref.faction)} card; this fleet is ${md(faction)}._`
      : undefined;
  return result(span, join(cardSummary(ref.card, ref.uri), `**${line}**`, other));
}

// ------------------------------------------------------------------------------------------
// Collection

/**
 * A collection entry: the card it names (as a fleet entry's hover shows it), how many the collection
 * owns of it, and each fleet of the workspace that fields it, with how many more it needs. A
 * collection that is not the one in use says so (its counts are not read).
 */
function collectionHover(doc: CollectionDocument, ws: Workspace, off: number): HoverResult | undefined {
  const entry = (doc.owned?.items ?? []).find((e) => within(e.span, off));
  if (!entry) return undefined;
  const name = entry.unit.value;
  const span =
    within(entry.count.span, off) && entry.count.span.end > entry.count.span.start
      ? entry.count.span
      : within(entry.unit.span, off)
        ? entry.unit.span
        : entry.span;
  if (!name) return undefined;
  const ref = ws.card(name, undefined, 'ownFirst');
  const active = activeCollection(ws);
  if (active && active.uri !== doc.uri)
    return result(span, join(`**${md(name)}**`, 'This collection is not read: only one collection per workspace is, the first by path. Merge the two.'));
  const owned = ownedCounts(doc).get(ownedKey(ref?.name ?? name))?.count ?? ownedCounts(doc).get(ownedKey(name))?.count ?? 0;
  const head = ref ? cardSummary(ref.card, ref.uri) : `**${md(name)}**\n\nNo card of that name in the workspace.`;
  const key = ownedKey(ref?.name ?? name);
  const fleets: string[] = [];
  for (const fleet of ws.fleets()) {
    let fielded = 0;
    const faction = fleet.faction.value;
    for (const e of fleet.units?.items ?? []) {
      const n = e.count.value !== undefined && e.count.value > 0 ? e.count.value : 0;
      const same = (raw: string | undefined) => !!raw && ownedKey(ws.card(raw, faction, 'own')?.name ?? raw) === key;
      if (same(e.unit.value)) fielded += n;
      for (const x of e.embark?.items ?? []) if (same(x.value)) fielded += n;
    }
    if (!fielded) continue;
    const short = shortfalls(fleet, doc, ws).find((x) => ownedKey(x.name) === key);
    const fleetName = fleet.name.value || decodeURIComponent(fleet.uri.replace(/^.*\//, ''));
    fleets.push(`- ${md(fleetName)}: fields ${fielded}${short ? `, **${short.fielded - short.owned} to buy**` : ''}`);
    if (fleets.length >= 20) break;
  }
  return result(
    span,
    join(
      head,
      owned ? `**You own ${owned}.**` : '**You own none.**',
      fleets.length ? `Fleets that field it:\n${fleets.join('\n')}` : 'No fleet in the workspace fields it.',
    ),
  );
}

// ------------------------------------------------------------------------------------------
// Command Board

function factionHover(doc: FactionDocument, ws: Workspace, off: number): HoverResult | undefined {
  const fk = keyHover(doc.faction, off, () => factionKey('faction', doc.faction, ws));
  if (fk) return fk;
  if (within(doc.doctrine.span, off) || within(doc.doctrine.keySpan, off)) {
    const d = doc.doctrine.value;
    const head = join(
      fieldHead('faction', 'doctrine', md(d ?? doc.doctrine.raw)),
      d ? `${withArticle(d, true)} doctrine generates ${DOCTRINES[d]} CP per round.` : undefined,
    );
    return result(spanOf(doc.doctrine, off), head, quote(BOARD.section, { inPlay: true }));
  }
  if (doc.cp && (within(doc.cp.span, off) || within(doc.cp.keySpan, off))) {
    const sources = doc.cpSources?.items.reduce((t, s) => t + (s.cp.value ?? 0), 0);
    const head = join(
      fieldHead('faction', 'cp', doc.cp.value ?? md(doc.cp.raw)),
      doc.doctrine.value ? `The ${doc.doctrine.value} doctrine gives ${DOCTRINES[doc.doctrine.value]} CP per round.` : undefined,
      doc.cpSources ? `The CP sources add up to ${sources} CP.` : undefined,
    );
    return result(spanOf(doc.cp, off), head, quote(BOARD.section, { inPlay: true }));
  }
  if (doc.cpSources && within(doc.cpSources.keySpan, off)) {
    const sum = doc.cpSources.items.reduce((t, s) => t + (s.cp.value ?? 0), 0);
    const d = doc.doctrine.value;
    return result(
      doc.cpSources.keySpan,
      join(fieldHead('faction', 'cpSources'), `${sum} CP in all${d ? `; the ${d} doctrine generates ${DOCTRINES[d]} CP per round` : ''}.`),
      quote(BOARD.section, { inPlay: true }),
    );
  }
  if (doc.factionAbility && within(doc.factionAbility.text.span, off)) return termHoverAt(doc.text, off);
  if (doc.factionAbility && (within(doc.factionAbility.keySpan, off) || within(doc.factionAbility.name.span, off))) {
    return result(
      within(doc.factionAbility.keySpan, off) ? doc.factionAbility.keySpan : doc.factionAbility.name.span,
      join(
        `**Faction Ability: ${md(doc.factionAbility.name.value ?? '?')}**`,
        md(doc.factionAbility.text.value ?? ''),
        fieldOf('faction', 'factionAbility')?.doc,
        'It affects every unit of the faction.',
      ),
      quote(BOARD.section, { inPlay: true }),
    );
  }
  if (doc.factionAbilityKey && within(doc.factionAbilityKey, off))
    return result(doc.factionAbilityKey, fieldHead('faction', 'factionAbility'), quote(BOARD.section));
  if (doc.commandAbilities) {
    const cas = doc.commandAbilities;
    if (within(cas.keySpan, off)) {
      return result(cas.keySpan, join(fieldHead('faction', 'commandAbilities'), `This board has ${cas.items.length}.`), quote(BOARD.section, { inPlay: true }));
    }
    for (const ca of cas.items) {
      if (!within(ca.span, off)) continue;
      if (within(ca.effect.span, off) || within(ca.timing.span, off)) return termHoverAt(doc.text, off);
      const perRound = cpPerRound(doc);
      const cost = ca.cost.value;
      const head = join(
        `**${md(ca.name.value ?? 'Command ability')}** — ${cost ?? '?'} CP`,
        ca.timing.value ? `_When:_ ${md(ca.timing.value)}` : undefined,
        ca.effect.value ? md(ca.effect.value) : undefined,
        perRound !== undefined && cost !== undefined
          ? `${cost} of the ${perRound} CP the faction generates per round${cost > perRound ? ': it can never be paid' : ''}.`
          : undefined,
      );
      return result(
        within(ca.cost.span, off) ? ca.cost.span : within(ca.name.span, off) ? ca.name.span : ca.span,
        head,
        quote(BOARD.section, { inPlay: true }),
      );
    }
  }
  return undefined;
}

/** The rulebook section for a glossary term under the cursor in any text; for the rule-lookup command. */
export function termHoverAt(text: string, off: number): HoverResult | undefined {
  const isWord = (c: string | undefined) => !!c && /[\p{L}\p{N}&]/u.test(c);
  let s = off;
  while (s > 0 && isWord(text[s - 1])) s--;
  let e = off;
  while (e < text.length && isWord(text[e])) e++;
  if (e <= s) return undefined;
  // Try the word with up to two neighbours on each side, longest first ("Shields Back Online").
  const words: { start: number; end: number }[] = [];
  const re = /[\p{L}\p{N}&]+/gu;
  const lineStart = text.lastIndexOf('\n', s) + 1;
  const lineEndAt = text.indexOf('\n', e);
  const line = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  for (let m = re.exec(line); m; m = re.exec(line)) words.push({ start: lineStart + m.index, end: lineStart + m.index + m[0].length });
  const i = words.findIndex((w) => w.start === s);
  if (i < 0) return undefined;
  for (let len = 3; len >= 1; len--) {
    for (let a = Math.max(0, i - len + 1); a <= i && a + len <= words.length; a++) {
      const span = { start: words[a]!.start, end: words[a + len - 1]!.end };
      const phrase = text.slice(span.start, span.end);
      const n = termSection(phrase);
      if (n !== undefined) {
        const m = sectionMarkdown(n);
        if (m) return { span, markdown: m };
      }
    }
  }
  return undefined;
}

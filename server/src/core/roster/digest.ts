/**
 * A roster anyone can verify: the rules version the tools apply, and a short digest of the fleet
 * and of the cards it uses, printed on every export (render.ts) and checked by `fabled-star verify`.
 *
 * The digest is taken over the parsed, normalized content, never over bytes, so that what does not
 * change the fleet does not change it:
 *
 * - the fleet: its name and faction (as one line, see clean.ts), its points limit, and its units
 *   as a multiset of copies, each copy the card's name as the card spells it (an unknown name: as
 *   written, lower-cased) with its embarked units sorted. So `count: 2` and the same entry written
 *   twice, entries in another order, a name in other letter case, comments, quoting, indentation
 *   and line endings all give the same digest. Objectives are left out: the one-line roster does
 *   not carry them, and they do not change which units are on the table.
 * - each card used, once: faction, name, class, points, bases, base size, the nine stats (parsed:
 *   "5 +" and "5+", or the mapping and the stat-line forms, are one value), each weapon's name,
 *   type (E and Energy are one type), range, damage and attacks in card order, each order's name,
 *   difficulty, range and effect, each ability's name and text; text as one line. Any change a
 *   player would see on the card changes the digest; a card the fleet does not use does not.
 *
 * The digest is "fs1-" and the first 16 hex digits (64 bits) of the SHA-256 of that content as
 * JSON: a check against mistakes and quiet edits of a list or a card, which anyone can recompute.
 * "fs1" names this definition; a different definition would be "fs2".
 */
import { sha256Hex } from '../model/hash';
import type { StatValue, UnitCard } from '../model/types';
import type { CardRef } from '../workspace';
import { STAT_ORDER } from '../rules/data';
import { ruleText } from '../rules/text';
import { clean } from './clean';
import { getMemo, memo, setMemo } from '../model/memo';

export const DIGEST_SCHEME = 'fs1';
/** A digest as printed: `fs1-` and 16 lower-case hex digits. */
export const DIGEST_PATTERN = /\bfs1-[0-9a-f]{16}\b/;

/** The rulebook version the tools' rule figures come from: its newest changelog entry. */
export interface RulesVersion {
  /** The version label as the rulebook prints it ("July 30"). */
  version: string;
  /** Its ISO date. */
  date: string;
}

/** The rules version, kept with the rule text it is read from. */
const RULES_VERSION = memo<RulesVersion>('rules version');

export function rulesVersion(): RulesVersion {
  const text = ruleText();
  const hit = getMemo(text, RULES_VERSION);
  if (hit) return hit;
  const newest = [...text.changelog].sort((a, b) => b.date.localeCompare(a.date))[0];
  const v = { version: newest?.version ?? 'unknown', date: newest?.date ?? '' };
  setMemo(text, RULES_VERSION, v);
  return v;
}

/** "July 30 (2026-07-30)": how every export prints the rules version. */
export function rulesVersionText(v: RulesVersion = rulesVersion()): string {
  return v.date ? `${v.version} (${v.date})` : v.version;
}

/** One copy of an entry as the digest reads it. */
export interface DigestEntry {
  /** The name as written in the fleet. */
  unit: string;
  card: CardRef | undefined;
  count: number;
  embarked: { name: string; card: CardRef | undefined }[];
}

export interface DigestInput {
  name: string;
  faction: string;
  limit: number | undefined;
  entries: DigestEntry[];
}

function nameOf(written: string, card: CardRef | undefined): string {
  return card ? clean(card.name) : clean(written).toLowerCase();
}

function stat(v: StatValue | undefined, raw: string): unknown {
  if (!v) return clean(raw);
  switch (v.kind) {
    case 'none':
      return '-';
    case 'sticks':
      return v.parts;
    case 'target':
      return `${v.target}+`;
    case 'count':
      return v.n;
    case 'targetDice':
      return [v.target, v.dice];
  }
}

const num = (f: { value?: number | undefined; raw: string } | undefined) => (f === undefined ? null : (f.value ?? clean(f.raw)));
const txt = (f: { value?: string | undefined; raw: string } | undefined) => (f === undefined ? null : clean(f.value ?? f.raw));

/** The content of a card that a player reads, normalized (see the top of this file). */
export function canonicalCard(card: UnitCard, faction: string): unknown {
  return {
    faction: clean(faction),
    name: txt(card.name),
    class: card.class.value ?? clean(card.class.raw).toLowerCase(),
    points: num(card.points),
    bases: num(card.bases),
    base: num(card.base),
    stats: STAT_ORDER.map((s) => {
      const e = card.stats?.entries[s];
      return e ? stat(e.value, e.raw) : null;
    }),
    weapons: (card.weapons?.items ?? []).map((w) => [
      txt(w.name),
      w.type.value ?? clean(w.type.raw).toLowerCase(),
      num(w.range),
      num(w.damage),
      num(w.attacks),
    ]),
    orders: (card.orders?.items ?? []).map((o) => [txt(o.name), num(o.difficulty), num(o.range), txt(o.effect)]),
    abilities: (card.abilities?.items ?? []).map((a) => [txt(a.name), txt(a.text)]),
  };
}

/** A card's key in the digest, kept with the card for the faction and name it was made from (a big fleet names the same few cards hundreds of times). */
const CARD_KEY = memo<{ faction: string; name: string; key: string }>('digest card key');

function cardKey(ref: CardRef): string {
  const kept = getMemo(ref.card, CARD_KEY);
  if (kept && kept.faction === ref.faction && kept.name === ref.name) return kept.key;
  const key = JSON.stringify([clean(ref.faction).toLowerCase(), clean(ref.name).toLowerCase()]);
  setMemo(ref.card, CARD_KEY, { faction: ref.faction, name: ref.name, key });
  return key;
}

/** The normalized content the digest is taken over (exported for tests and for anyone re-implementing it). */
export function digestContent(input: DigestInput): unknown {
  const copies = new Map<string, number>();
  const cards = new Map<string, { key: string; ref: CardRef }>();
  const use = (ref: CardRef | undefined) => {
    if (!ref) return;
    const key = cardKey(ref);
    if (!cards.has(key)) cards.set(key, { key, ref });
  };
  for (const e of input.entries) {
    use(e.card);
    for (const x of e.embarked) use(x.card);
    if (e.count <= 0) continue;
    const copy = JSON.stringify([nameOf(e.unit, e.card), e.embarked.map((x) => nameOf(x.name, x.card)).sort()]);
    copies.set(copy, (copies.get(copy) ?? 0) + e.count);
  }
  return {
    scheme: DIGEST_SCHEME,
    fleet: {
      name: clean(input.name),
      faction: clean(input.faction).toLowerCase(),
      limit: input.limit ?? null,
      units: [...copies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([copy, n]) => [JSON.parse(copy), n]),
    },
    cards: [...cards.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((c) => canonicalCard(c.ref.card, c.ref.faction)),
  };
}

/** `fs1-` and 16 hex digits. */
export function fleetDigest(input: DigestInput): string {
  const hash = sha256Hex(JSON.stringify(digestContent(input)));
  return `${DIGEST_SCHEME}-${hash.slice(0, 16)}`;
}

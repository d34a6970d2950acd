/**
 * Card names as the importer compares them (letter case, quotes, dashes, spacing, markdown escapes,
 * accents and plurals aside) and the cards of the workspace indexed by them.
 */
import type { Workspace } from '../../workspace';
import { prepare, type Prepared } from '../../model/suggest';

/** A name as compared: NFKC, lower case, one kind of quote and dash, markdown escapes and emphasis gone, one space. */
export function nameKey(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\\(.)/g, '$1')
    .replace(/[\u200b-\u200d\ufe0e\ufe0f]|\p{Extended_Pictographic}/gu, '')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A name as a player may misspell it and still mean one card: `nameKey`, and also no accents
 * ("Okami" for "\u014ckami"), a hyphen or an apostrophe as a space or left out ("Star Eater",
 * "Shavor"), and the last word's plural ("2 Maw Escort Packs"): tried only when the exact key
 * names no card, and only when it names one card name.
 */
export function looseKeys(key: string): string[] {
  const k = key.normalize('NFD').replace(/\p{M}/gu, '').replace(/['"-]/g, '').replace(/\s+/g, '');
  const out = [k];
  if (/ies$/.test(key)) out.push(k.replace(/ies$/, 'y'));
  if (/(?:s|x|z|ch|sh)es$/.test(key)) out.push(k.replace(/es$/, ''));
  if (/[^s]s$/.test(key)) out.push(k.replace(/s$/, ''));
  return out;
}

export interface Cards {
  /** Key -> cards of that name (several factions may share one). */
  byKey: Map<string, ImportCard[]>;
  /** Loose key (looseKeys' first) -> the names of the cards it may mean. */
  byLoose: Map<string, Set<string>>;
  prepared: Prepared[];
  /**
   * A card's name cut short ("Prism Frigate" for "Prism Frigate Squadron"): its first words (two or
   * more, fewer than all, not a faction's name), as `wordsKey` writes them -> the card's name.
   */
  byPrefix: Map<string, string[]>;
  factions: string[];
  /** Names looked up already, in this import (a post asks about the same pieces several times). */
  memo: Map<string, ImportCard[] | undefined>;
}

/** A card as the importer reads it: a `CardRef`'s summary, as plain data (the import may run on a worker thread). */
export interface ImportCard {
  name: string;
  faction: string;
  cls: string | undefined;
  points: number | undefined;
}

/** The cards a text is read against: every faction, and each faction's cards in the workspace's order. */
export interface ImportCards {
  factions: string[];
  cards: ImportCard[];
}

/** The workspace's cards as plain data (each card's summary only: a closed file is not parsed again). */
export function importCards(ws: Workspace): ImportCards {
  const factions = ws.factions();
  return { factions, cards: factions.flatMap((f) => ws.cardsOf(f).map((r) => ({ name: r.name, faction: r.faction, cls: r.cls, points: r.points }))) };
}

export function cardsOf(src: ImportCards): Cards {
  const byKey = new Map<string, ImportCard[]>();
  const byLoose = new Map<string, Set<string>>();
  const names: string[] = [];
  const factions = src.factions;
  for (const ref of src.cards) {
    const k = nameKey(ref.name);
    if (!k) continue;
    const list = byKey.get(k);
    if (list) list.push(ref);
    else byKey.set(k, [ref]);
    const lk = looseKeys(k)[0]!;
    const set = byLoose.get(lk);
    if (set) set.add(k);
    else byLoose.set(lk, new Set([k]));
    names.push(ref.name);
  }
  const byPrefix = new Map<string, string[]>();
  const factionKeys = new Set(factions.map((f) => wordsKey(f)));
  for (const name of names) {
    const words = wordsKey(name).split(' ');
    for (let n = words.length - 1; n >= 2; n--) {
      const k = words.slice(0, n).join(' ');
      if (factionKeys.has(k) || byKey.has(k)) continue;
      const list = byPrefix.get(k);
      if (!list) byPrefix.set(k, [name]);
      else if (!list.includes(name) && list.length < 5) list.push(name);
    }
  }
  return { byKey, byLoose, byPrefix, prepared: prepare(names), factions, memo: new Map() };
}

/** A name's words only: `nameKey` without punctuation ("Prism Frigate Squadron (x2)" -> "prism frigate squadron x2"). */
export function wordsKey(s: string): string {
  return nameKey(s)
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim();
}

/** The cards a name means: its exact key's, else its loose key's when that names one card name. */
export function lookup(cards: Cards, name: string): ImportCard[] | undefined {
  if (cards.memo.has(name)) return cards.memo.get(name);
  const found = lookupKey(cards, name);
  if (cards.memo.size < 50_000) cards.memo.set(name, found);
  return found;
}

function lookupKey(cards: Cards, name: string): ImportCard[] | undefined {
  const key = nameKey(name);
  const exact = cards.byKey.get(key);
  if (exact || !key) return exact;
  for (const lk of looseKeys(key)) {
    const set = cards.byLoose.get(lk);
    if (set?.size === 1) return cards.byKey.get([...set][0]!);
  }
  return undefined;
}

/** Whether the text starts with a card's whole name (letter case, quotes and spacing aside). */
export function cardFirst(text: string, cards: Cards): boolean {
  const k = `${nameKey(text)
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim()} `;
  for (const key of cards.byKey.keys()) if (key.length >= 4 && k.startsWith(`${key.replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `)) return true;
  return false;
}

/** The longest card name inside a line, at word boundaries (bounded: a line is cut to IMPORT_LIMITS.lineChars). */
export function cardInside(text: string, cards: Cards): string | undefined {
  const k = ` ${nameKey(text).replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `;
  let best: ImportCard | undefined;
  for (const [key, refs] of cards.byKey)
    if (key.length >= 4 && (!best || key.length > best.name.length) && k.includes(` ${key.replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `)) best = refs[0];
  return best?.name;
}

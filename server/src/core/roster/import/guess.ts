/**
 * A name no card has, read as the card it clearly means: a name cut short or a plural of the first
 * words of one card's name ("Veilwing Fighters" for "Veilwing Fighter Wing"), or one card within a
 * typo's edit distance (a quarter of the name's letters, at least 2) with no other within 2 more
 * edits ("Celestial Batleship"). The distance is suggest.ts's bounded one (the checks' "did you
 * mean"), so a hostile paste stays cheap.
 */
import { boundedDistance, nearest, SuggestBudget, SUGGEST_LIMITS } from '../../model/suggest';
import { type Cards, type ImportCard, wordsKey } from './names';

/** The card a name clearly means, if one, and the cards it may mean (closest first). */
export interface Guess {
  take?: ImportCard;
  candidates: string[];
}

/** How names are guessed in one import: a shared work budget, and each name guessed once. */
export interface Guesser {
  budget: SuggestBudget;
  /** The card a plain line may mean (a unit written without a marker), when one is close. */
  closeTo(name: string): string | undefined;
  /** The card a name no card has clearly means (`pick` chooses among the cards of one name), and the cards it may mean. */
  guess(name: string, pick: (name: string) => ImportCard | undefined): Guess;
}

/** The guesses of one import; `asWritten` takes no card for a name no card has, only its candidates. */
export function guesser(cards: Cards, asWritten: boolean): Guesser {
  const budget = new SuggestBudget();
  const guessed = new Map<string, Guess>();
  const generous = (name: string) =>
    nearest(name, cards.prepared, {
      n: 3,
      bonus: 2 * SUGGEST_LIMITS.chars + 1,
      allowed: () => Math.max(3, Math.ceil(Math.min(name.trim().length, SUGGEST_LIMITS.chars) / 2)),
      budget,
    });
  const guessOnce = (name: string, pick: (name: string) => ImportCard | undefined): Guess => {
    if (asWritten) return { candidates: generous(name) };
    const key = wordsKey(name);
    for (const k of new Set([key, key.replace(/ies$/, 'y'), key.replace(/(s|x|z|ch|sh)es$/, '$1'), key.replace(/([^s])s$/, '$1')])) {
      const list = cards.byPrefix.get(k);
      if (list) return list.length === 1 ? { take: pick(list[0]!), candidates: list } : { candidates: list.slice(0, 3) };
    }
    const q = name.trim().toLowerCase().slice(0, SUGGEST_LIMITS.chars);
    const allowed = Math.max(2, Math.floor(q.length / 4));
    const near = nearest(name, cards.prepared, { n: 3, bonus: 0, allowed: () => allowed, budget });
    if (near.length) {
      const d = near.map((c) => boundedDistance(q, c.toLowerCase().slice(0, SUGGEST_LIMITS.chars), allowed + 2, budget));
      if (near.length === 1 || d[1]! - d[0]! >= 2) return { take: pick(near[0]!), candidates: near };
      return { candidates: near };
    }
    return { candidates: generous(name) };
  };
  return {
    budget,
    // No bonus for a name inside a card's ("Escorts" is a heading, not "Shardlight Escort"), and a tighter bound.
    // A card's name cut short on its own line is a unit too ("Prism Frigate" for "Prism Frigate Squadron").
    closeTo: (name) =>
      nearest(name, cards.prepared, {
        n: 1,
        bonus: 0,
        allowed: () => Math.max(2, Math.floor(Math.min(name.trim().length, SUGGEST_LIMITS.chars) / 5)),
        budget,
      })[0] ?? cards.byPrefix.get(wordsKey(name))?.[0],
    guess: (name, pick) => {
      let g = guessed.get(name);
      if (!g) {
        g = guessOnce(name, pick);
        if (guessed.size < 50_000) guessed.set(name, g);
      }
      return g;
    },
  };
}

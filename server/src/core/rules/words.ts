/**
 * English for messages and hovers built from words: counts with the right plural ("1 ability",
 * "2 abilities", "3 dice") and the right indefinite article ("an Escort", "an Iron Choir card",
 * "a Unity card", "an 8" stick"). Every message that puts a count or a name after "a" goes
 * through here, so class, faction, doctrine and card names read right whatever they are.
 */

/** Plurals that no spelling rule gives. */
const IRREGULAR: Readonly<Record<string, string>> = { die: 'dice', info: 'infos', other: 'others' };

/** The plural of one word or of a phrase's last word: "ability slot" -> "ability slots". */
export function pluralOf(singular: string): string {
  const m = /^(.*?)([A-Za-z]+)$/.exec(singular);
  if (!m) return singular;
  const [, head, word] = m as unknown as [string, string, string];
  const lower = word.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular) return head + (word[0] === word[0]!.toUpperCase() ? irregular[0]!.toUpperCase() + irregular.slice(1) : irregular);
  if (/[^aeiou]y$/i.test(word)) return head + word.slice(0, -1) + (word.endsWith('Y') ? 'IES' : 'ies');
  if (/(s|x|z|ch|sh)$/i.test(word)) return head + word + 'es';
  return head + word + 's';
}

/** The word for n of a thing, without the number: "ability" for 1, "abilities" otherwise. */
export function noun(n: number, singular: string, plural?: string): string {
  return n === 1 ? singular : (plural ?? pluralOf(singular));
}

/** n and the word for n of a thing: "1 ability", "2 abilities", "0 bases", "3 dice". */
export function count(n: number, singular: string, plural?: string): string {
  return `${n} ${noun(n, singular, plural)}`;
}

/** Vowel-letter words said with a consonant sound first ("a unit", "a one-off", "a Eurasian"). */
const CONSONANT_SOUND = /^(uni(?!nstall|mportant|ntelligent|nhabit)|use|usu|uti|eu|ewe|one\b|once\b|ouija)/i;
/** Consonant-letter words said with a vowel sound first ("an hour", "an honest"). */
const VOWEL_SOUND = /^(hour|honest|honou?r|heir)/i;
/** Letters whose names start with a vowel sound, for initialisms such as "an LD roll", "an SH pool". */
const VOWEL_LETTER_NAMES = new Set('AEFHILMNORSX');

/** "a" or "an" for the word or phrase that follows (its first word decides); `capital` opens a sentence. */
export function article(phrase: string, capital = false): 'a' | 'an' | 'A' | 'An' {
  const a = articleOf(phrase);
  return capital ? (a === 'a' ? 'A' : 'An') : a;
}

function articleOf(phrase: string): 'a' | 'an' {
  const s = phrase.trim().replace(/^["'\u201c\u2018(*_`]+/, '');
  if (s === '') return 'a';
  // Numbers: said "eight", "eleven", "eighteen", "eighty", "eight hundred" (an); others (a).
  const num = /^\d[\d,]*/.exec(s);
  if (num) {
    const digits = num[0].replace(/,/g, '');
    if (digits[0] === '8') return 'an';
    // 11 and 18 are "eleven" and "eighteen"; so are 11,000 and 18,000 (but not 110 or 180).
    if (/^(11|18)$/.test(digits) || (digits.length % 3 === 2 && /^(11|18)/.test(digits))) return 'an';
    return 'a';
  }
  const word = /^[\p{L}\p{N}]+/u.exec(s)?.[0] ?? s;
  // An initialism (two or more capitals, no lower case) is read letter by letter.
  if (word.length >= 2 && word.length <= 4 && word === word.toUpperCase() && /^[A-Z]+$/.test(word)) {
    return VOWEL_LETTER_NAMES.has(word[0]!) ? 'an' : 'a';
  }
  if (VOWEL_SOUND.test(word)) return 'an';
  if (CONSONANT_SOUND.test(word)) return 'a';
  return /^[aeiou\u00e1\u00e0\u00e2\u00e4\u00e9\u00e8\u00ea\u00eb\u00ed\u00ec\u00ee\u00ef\u00f3\u00f2\u00f4\u00f6\u00fa\u00f9\u00fb\u00fc]/i.test(word)
    ? 'an'
    : 'a';
}

/** The phrase with its article: "an Escort", "a Cruiser", "an Iron Choir card"; `capital` opens a sentence. */
export function withArticle(phrase: string, capital = false): string {
  return `${article(phrase, capital)} ${phrase}`;
}

/** Words joined as a list: "Escorts", "Escorts and Frigates", "Fighters, Bombers and Escorts". */
export function listOf(words: readonly string[], last = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/**
 * What is left of a points limit, the one wording of every view (hover, lens, inlay hint, roster,
 * Fleet view): "5 pts left", "105 pts over the limit", "exactly on the limit". `short`, for a
 * label beside the points already: "5 left", "105 over".
 */
export function pointsLeft(remaining: number, short = false): string {
  if (remaining > 0) return short ? `${remaining} left` : `${remaining} pts left`;
  if (remaining < 0) return short ? `${-remaining} over` : `${-remaining} pts over the limit`;
  return 'exactly on the limit';
}

/**
 * A chance as every figure shown to players writes it (the views, the CLI's battle report, the
 * summaries): hundredths of a percent, "54.12%"; never a misleading 0% or 100% for a chance that
 * is neither: "<0.01%" and ">99.99%" at the edges; "\u2014" for no number.
 */
export function formatPercent(p: number): string {
  if (!Number.isFinite(p)) return '\u2014';
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  if (p < PERCENT_SMALLEST) return `<${(PERCENT_SMALLEST * 100).toFixed(PERCENT_DIGITS)}%`;
  if (p > 1 - PERCENT_SMALLEST) return `>${((1 - PERCENT_SMALLEST) * 100).toFixed(PERCENT_DIGITS)}%`;
  return `${(p * 100).toFixed(PERCENT_DIGITS)}%`;
}

/** The standard error of a chance, in percentage points, as `formatPercent` writes chances: "\u00b1 0.35%". */
export function formatPercentError(se: number): string {
  if (!Number.isFinite(se)) return '';
  return `\u00b1 ${(se * 100).toFixed(PERCENT_DIGITS)}%`;
}

/** A half-width as the stop of a run until sure says it: "\u00b11%", "\u00b11.4%" (a tenth of a point at most). */
export function halfWidthWords(h: number): string {
  return `\u00b1${Number((h * 100).toFixed(1))}%`;
}

/**
 * Why a battle run until sure stopped, in the words every place that shows it uses (the CLI's
 * report, the battle view, the lens): "sure to \u00b11%" when its figures were sure enough, "stopped
 * at the cap: \u00b11.4%" when the most battles asked for were played first. Undefined for a run that
 * played a count of battles.
 */
export function stoppedWords(r: { stopped?: 'precision' | 'cap' | undefined; precision?: number | undefined }): string | undefined {
  if (!r.stopped || r.precision === undefined) return undefined;
  return r.stopped === 'precision' ? `sure to ${halfWidthWords(r.precision)}` : `stopped at the cap: ${halfWidthWords(r.precision)}`;
}

const PERCENT_DIGITS = 2;
const PERCENT_SMALLEST = 10 ** -(PERCENT_DIGITS + 2);

/**
 * The rows "destroyed within N Fire actions" of a shots-to-kill distribution (its cumulative
 * chances, `cdf[n - 1]` within n): every N up to where 99.9% is reached, at most `maxRows`, evenly
 * spaced, the last always shown. The CLI's text and the engagement view's table show these rows.
 */
export function shotsToKillRows(s: { mean: number | null; cdf: readonly number[] } | undefined, maxRows = 12): { actions: number; p: number }[] {
  if (!s || s.mean === null || s.cdf.length === 0) return [];
  let last = s.cdf.findIndex((c) => c >= 0.999);
  if (last < 0) last = s.cdf.length - 1;
  const step = Math.ceil((last + 1) / Math.max(1, maxRows));
  const rows: { actions: number; p: number }[] = [];
  for (let i = 0; i <= last; i++) if (i % step === 0 || i === last) rows.push({ actions: i + 1, p: s.cdf[i]! });
  return rows;
}

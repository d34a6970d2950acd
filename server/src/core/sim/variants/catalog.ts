/**
 * The rule variants as data (BATTLE.md "Rule variants from other games"): names, titles in player
 * words, sources, one-line summaries, parameters with their documented defaults and bounds, the
 * battle length a variant imposes, and which pairs conflict and why. No imports, on purpose: the
 * views bundle this file (through protocol/simulation) to build their variant pickers without the
 * simulator. The modules beside it (sustained-damage.ts, ...) hold the hooks. Also the two small
 * helpers the views and reports share to speak of variants: their titles in a sentence, and whether
 * two sampled chances differ by more than the noise.
 */

/** One parameter of a variant: its documented default and bounds. */
export interface VariantParameter {
  default: number;
  min: number;
  max: number;
  /** What it means, in words (help text and errors). */
  what: string;
  /** What the views' field for it says, in player words. */
  label: string;
}

export interface VariantEntry {
  /** The name given to `--variant`. */
  name: string;
  /** The name in player words ("break tests"). */
  title: string;
  /** The rule text it comes from (in shared/rules/other-games/). */
  source: string;
  /** The game it comes from, in words. */
  game: string;
  /** One sentence: what it does. */
  summary: string;
  parameters: Readonly<Record<string, VariantParameter>>;
  /** A fixed battle length (rounds) the variant imposes, if any. */
  rounds?: number;
  /** Units may flee the battle (routed: not destroyed, counted as lost). */
  routs?: boolean;
  /** A side may leave the battle alive (retreat). */
  withdraws?: boolean;
  /** How a side wins under it, in player words, where the variant decides the winner itself. */
  victory?: string;
}

/** Every variant, in the order their hooks run. */
export const VARIANT_CATALOG: readonly VariantEntry[] = [
  {
    name: 'sustained-damage',
    title: 'sustained damage',
    source: 'target-lock-damage.txt',
    game: 'the Target Lock damage rules',
    summary: "A squadron's damage goes into one shared pool: no damage is lost at a base's edge.",
    parameters: {},
  },
  {
    name: 'break-tests',
    title: 'break tests',
    source: 'rank-and-flank-melee.txt',
    game: 'rank-and-flank melee',
    summary: 'After each round the side that caused less damage tests its units with LD; units that fail flee.',
    parameters: {},
    routs: true,
  },
  {
    name: 'retreat',
    title: 'retreat',
    source: 'twilight-imperium-space-combat-retreat.txt',
    game: 'Twilight Imperium space combat',
    summary: 'A side that falls behind announces a retreat and leaves at the end of the round, saving what is left.',
    withdraws: true,
    parameters: {
      threshold: {
        default: 0.5,
        min: 0.01,
        max: 1,
        what: "the share of the enemy's remaining points below which a side announces a retreat (0.01 to 1)",
        label: "a side retreats when its points fall below this share of the enemy's (0.01 to 1)",
      },
    },
  },
  {
    name: 'morale',
    title: 'morale',
    source: 'forbidden-stars-combat.txt',
    game: 'Forbidden Stars combat',
    summary: 'Three rounds, then the side with the higher morale wins and the loser routs.',
    parameters: {},
    rounds: 3,
    routs: true,
    victory: 'wins on morale',
  },
];

export const VARIANT_NAMES: readonly string[] = VARIANT_CATALOG.map((v) => v.name);

/** Pairs that cannot be combined, and why. */
export const VARIANT_CONFLICTS: readonly { pair: readonly [string, string]; why: string }[] = [
  {
    pair: ['morale', 'retreat'],
    why: 'a retreat ends the battle before the third round, while morale decides the battle at the end of the third round (in Forbidden Stars a retreat is a separate step after morale)',
  },
];

/** The conflict between two chosen variants, if any (order does not matter). */
export function variantConflict(names: readonly string[]): { pair: readonly [string, string]; why: string } | undefined {
  return VARIANT_CONFLICTS.find((c) => names.includes(c.pair[0]) && names.includes(c.pair[1]));
}

function clip(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** A variant read from outside: `name` undefined for an unknown one; every parameter, the defaults where none or a bad value was given; what was wrong. */
export interface ReadVariant {
  name?: string;
  parameters: Record<string, number>;
  errors: string[];
}

/** The parameters given for a catalogue entry, each a key and its value (a number, or the text of one), checked against the entry's bounds. */
function readParameters(entry: VariantEntry, given: readonly (readonly [string, unknown])[]): ReadVariant {
  const name = entry.name;
  const errors: string[] = [];
  const parameters: Record<string, number> = {};
  for (const [k, p] of Object.entries(entry.parameters)) parameters[k] = p.default;
  const seen = new Set<string>();
  for (const [key, raw] of given) {
    // Twice would silently keep the last, as a variant given twice would: say so instead.
    if (seen.has(key)) {
      errors.push(`${name}:${clip(key)} is given twice; give each parameter once.`);
      continue;
    }
    seen.add(key);
    const spec = Object.prototype.hasOwnProperty.call(entry.parameters, key) ? entry.parameters[key] : undefined;
    const known = Object.keys(entry.parameters);
    if (!spec) {
      errors.push(
        known.length
          ? `Variant ${name} has no parameter ${clip(key)}; its parameters are ${known.join(', ')}.`
          : `Variant ${name} takes no parameters (given ${clip(key)}).`,
      );
      continue;
    }
    const text = typeof raw === 'string' ? raw : String(raw);
    const value = typeof raw === 'number' ? raw : /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
    if (!Number.isFinite(value) || value < spec.min || value > spec.max) {
      errors.push(`${name}:${key} must be ${spec.what}, not ${clip(text)}.`);
      continue;
    }
    parameters[key] = value;
  }
  return { name, parameters, errors };
}

function unknownVariant(item: string): ReadVariant {
  return { parameters: {}, errors: [`Unknown variant ${clip(item)}; the variants are ${VARIANT_NAMES.join(', ')}.`] };
}

/**
 * One variant as written outside (a CLI flag, a view's choice, an older client's request): its
 * name, or `name:param=value` with several parameters separated by commas.
 */
export function readVariantSpec(item: string): ReadVariant {
  const cut = item.indexOf(':');
  const name = (cut < 0 ? item : item.slice(0, cut)).trim().toLowerCase();
  const entry = VARIANT_CATALOG.find((v) => v.name === name);
  if (!entry) return unknownVariant(item);
  const rest = cut < 0 ? '' : item.slice(cut + 1).trim();
  const given = (rest ? rest.split(',') : []).map((part) => {
    const eq = part.indexOf('=');
    return [(eq < 0 ? part : part.slice(0, eq)).trim(), eq < 0 ? '' : part.slice(eq + 1).trim()] as const;
  });
  return readParameters(entry, given);
}

/** A chosen variant and its parameters (defaults filled in): how requests, the CLI and the engine carry a variant. */
export interface VariantChoice {
  name: string;
  parameters: Record<string, number>;
}

/**
 * One variant from outside as a choice: `{name, parameters}` (what requests send; parameters left
 * out take their defaults) or the text `name:param=value,...` (the CLI's flag, the views' pickers,
 * older clients). The same checks and the same words either way.
 */
export function readVariantChoice(item: unknown): ReadVariant {
  if (typeof item === 'string') return readVariantSpec(item);
  if (!item || typeof item !== 'object' || Array.isArray(item) || typeof (item as { name?: unknown }).name !== 'string')
    return { parameters: {}, errors: [`A variant must be a name (one of ${VARIANT_NAMES.join(', ')}), not ${Array.isArray(item) ? 'a list' : typeof item}.`] };
  const { name, parameters } = item as { name: string; parameters?: unknown };
  const entry = VARIANT_CATALOG.find((v) => v.name === name.trim().toLowerCase());
  if (!entry) return unknownVariant(name);
  const given = parameters && typeof parameters === 'object' && !Array.isArray(parameters) ? Object.entries(parameters as Record<string, unknown>) : [];
  return readParameters(entry, given);
}

/**
 * A variant as one string, the way `readVariantSpec` reads it: its name, then every parameter in
 * the catalogue's order (`retreat:threshold=0.5`). One string per choice, so that the views can
 * compare a choice with what a result was played with.
 */
export function variantSpec(name: string, parameters: Readonly<Record<string, number>> = {}): string {
  const entry = VARIANT_CATALOG.find((v) => v.name === name);
  const keys = Object.keys(entry?.parameters ?? {});
  if (!keys.length) return name;
  return `${name}:${keys.map((k) => `${k}=${parameters[k] ?? entry!.parameters[k]!.default}`).join(',')}`;
}

/** The catalogue entry of a variant by name (the variant modules spread it). */
export function catalogEntry(name: string): VariantEntry {
  const e = VARIANT_CATALOG.find((v) => v.name === name);
  if (!e) throw new Error(`No variant ${name} in the catalogue`);
  return e;
}

/**
 * What the variants played (by name) do to a result: whether units may be routed or sides
 * withdraw (so that the result carries those chances), and how a winner is decided if a variant
 * decides it. Read from the catalogue, so that engine, reports and views never list names.
 */
export function variantEffects(names: readonly string[]): { routs: boolean; withdraws: boolean; victory?: string } {
  const entries = VARIANT_CATALOG.filter((e) => names.includes(e.name));
  const victory = entries.find((e) => e.victory)?.victory;
  return { routs: entries.some((e) => e.routs), withdraws: entries.some((e) => e.withdraws), ...(victory ? { victory } : {}) };
}

/** "break tests", "break tests and morale", "sustained damage, break tests and retreat". */
export function variantTitles(variants: readonly { title: string }[]): string {
  const t = variants.map((v) => v.title);
  return t.length <= 1 ? (t[0] ?? 'the standard rules') : `${t.slice(0, -1).join(', ')} and ${t[t.length - 1]}`;
}

/** Whether two sampled chances differ by more than the sampling noise (two standard errors of the difference). */
export function clearlyDifferent(a: number, b: number, n1: number, n2: number): boolean {
  const v = (p: number, n: number) => (n > 0 ? (p * (1 - p)) / n : 0);
  const se = Math.sqrt(v(a, n1) + v(b, n2));
  return Math.abs(a - b) > 2 * se && Math.round(100 * a) !== Math.round(100 * b);
}

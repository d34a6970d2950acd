/**
 * What-if in the battle view: the fleet as it is now beside another version of it (its
 * saved text, git's HEAD, another fleet file), against the same opponent on the same dice. The
 * result's `compareFleets` holds the other version's figures and the paired differences (that
 * version minus this one); here they are turned round to read as the change made: "With your
 * edits: Lantern Watch wins 58% instead of 52%", each figure now and then, and the change marked up
 * or down when it is beyond two paired standard errors (the variants' comparison's marks), or
 * "within the noise"; the headline names every way a battle ends that moved (wins, draws, the
 * opponent's wins). Text from files is set as text, never HTML.
 */
import type { BattleResult } from './messages';
import { compareTable, el, type CompareTableRow } from '../variants';
import { formatPercent } from '../format';

type Paired = { delta: number; se: number };

const signed = (d: number) => `${d >= 0 ? '+' : '\u2212'}${formatPercent(Math.abs(d))}`;

/** A change told apart from the dice's noise: beyond two paired standard errors, and visible in whole percents. */
function clear(now: number, then: number, d: Paired): boolean {
  return Math.abs(d.delta) > 2 * d.se && Math.round(100 * now) !== Math.round(100 * then);
}

/**
 * The Change cell: "no change" when every battle ended alike, "within the noise (under 0.01%)" for a
 * change too small to write in hundredths of a percent (never "−<0.01% ± <0.01%"), else the change
 * with its paired error, "(within the noise)" when it is within the dice's noise.
 */
function changeText(d: Paired, yes: boolean): string {
  if (d.delta === 0 && d.se === 0) return 'no change';
  const size = formatPercent(Math.abs(d.delta));
  if (size.startsWith('<')) return `within the noise (under ${size.slice(1)})`;
  return `${signed(d.delta)} \u00b1 ${formatPercent(d.se)}${yes ? '' : ' (within the noise)'}`;
}

/**
 * Fills `section` (hidden without a comparison). `label` names the other version ("Saved
 * version"); `waiting`: a comparison is asked for but not played yet (a result still coming in).
 * `another`: the other is a different fleet list ("Compare with…" a file), not a version of this
 * one, so nothing is "your change": the words set the two lists side by side instead.
 */
export function renderFleetComparison(section: HTMLElement, r: BattleResult, label: string, waiting: boolean, another = false): void {
  section.replaceChildren();
  const c = r.compareFleets;
  section.hidden = !c && !(waiting && label);
  if (section.hidden) return;
  const then = label || 'the other version';
  const heading = el('h2', `Compared with ${then}`);
  heading.id = `${section.id}-heading`;
  section.setAttribute('aria-labelledby', heading.id);
  section.appendChild(heading);
  if (!c) {
    section.appendChild(
      el(
        'p',
        another
          ? `${then[0]!.toUpperCase()}${then.slice(1)} is played next, against the same opponent with the same dice: how the two lists compare shows here then.`
          : `${then[0]!.toUpperCase()}${then.slice(1)} is played next, against the same opponent with the same dice: what your change does shows here then.`,
        'note',
      ),
    );
    return;
  }
  // Another list (not this one changed): its figures are its own, so rows and words do not give them
  // this list's name. Only the host knows which it is: a saved version may have another name (the
  // edit renamed the list) and is still this list changed.
  const otherList = another;
  const rows = compareRows(r, c, otherList);
  const lead = compareLead(r, rows, then, otherList);
  const list = el('ul', undefined, 'compare-summary');
  list.appendChild(el('li', lead));
  list.appendChild(
    el(
      'li',
      otherList
        ? 'Both were played against the same opponent with the same dice, battle for battle, so what differs is the lists, not luck. A difference too large to be the dice\u2019s noise is marked up or down; a smaller one reads \u201cwithin the noise\u201d: these battles cannot tell it from luck.'
        : 'Both were played against the same opponent with the same dice, battle for battle, so what differs is the change, not luck. A change too large to be the dice\u2019s noise is marked up or down; a smaller one reads \u201cwithin the noise\u201d: these battles cannot tell it from luck.',
    ),
  );
  section.appendChild(list);
  const tableRows = rows.map((x): CompareTableRow => {
    const yes = clear(x.now, x.then, x.d);
    return {
      label: x.label,
      cells: [formatPercent(x.now), formatPercent(x.then)],
      change: changeText(x.d, yes),
      direction: yes ? (x.d.delta > 0 ? 'up' : 'down') : 'same',
      // Green is good news for the player: their fleet winning more, never the opponent's; a draw neither.
      tone: x.mine === undefined ? 'neutral' : x.d.delta > 0 === x.mine ? 'good' : 'bad',
    };
  });
  section.appendChild(
    compareTable(
      'data compare fleet-compare',
      `This list beside ${then}`,
      ['', otherList ? 'This list' : 'Now', then[0]!.toUpperCase() + then.slice(1), otherList ? 'Difference' : 'Change'],
      tableRows,
    ),
  );
  const details = el('details', undefined, 'advanced');
  details.appendChild(el('summary', otherList ? 'Advanced: how the difference is measured' : 'Advanced: how the change is measured'));
  details.appendChild(
    el(
      'p',
      `Battle i of this list and battle i of ${then} were rolled with the same dice (the same seed). Each change is the difference of the two figures \u00b1 its paired standard error (from the battle-by-battle differences); it is marked up or down when it is beyond twice that error and shows in whole percents, else it reads "within the noise".`,
    ),
  );
  section.appendChild(details);
}

/** A row of the comparison: this version's figure, the other's, and their paired difference. */
interface CompareRow {
  label: string;
  now: number;
  then: number;
  d: Paired;
  /** The row is the player's own fleet doing well (more is good news); else the opponent's (more is bad news) or a draw. */
  mine?: boolean;
}

/** Each side's points victory and annihilation, then the draw, this version beside the other. */
function compareRows(r: BattleResult, c: NonNullable<BattleResult['compareFleets']>, otherList: boolean): CompareRow[] {
  const rows: CompareRow[] = [];
  r.sides.forEach((s, i) => {
    const o = c.result.sides[i]!;
    const d = c.difference.sides[i]!;
    // The difference is the other version minus this one: turned round, it is the change made.
    const back = (x: Paired): Paired => ({ delta: -x.delta, se: x.se });
    // Beside another list, each column is its own list's figure: the row names neither.
    const who = i === 0 && otherList ? 'The list' : s.fleet || (i === 0 ? 'Your fleet' : 'The opponent');
    const mine = i === 0;
    rows.push({ label: `${who} comes out ahead`, now: s.pointsVictory.p, then: o.pointsVictory.p, d: back(d.pointsVictory), mine });
    rows.push({ label: `${who} destroys the whole other fleet`, now: s.annihilation.p, then: o.annihilation.p, d: back(d.annihilation), mine });
  });
  rows.push({ label: 'Draw on points', now: r.draw.p, then: c.result.draw.p, d: { delta: -c.difference.draw.delta, se: c.difference.draw.se } });
  return rows;
}

/** The comparison's first sentence: every way a battle ends that moved beyond the dice's noise, and what did not. */
function compareLead(r: BattleResult, rows: CompareRow[], then: string, otherList: boolean): string {
  const name = r.sides[0].fleet || 'Your fleet';
  const wins = rows[0]!;
  const draws = rows[rows.length - 1]!;
  const theirs = rows[2]!;
  const opponent = r.sides[1].fleet || 'the opponent';
  const same = rows.every((x) => x.d.delta === 0 && x.d.se === 0);
  // Every way a battle ends that moved beyond the dice's noise: the fleet's wins, draws, the
  // opponent's wins (lost wins may have become draws, the opponent winning no more).
  const endings = [
    {
      row: wins,
      own: (a: string, b: string) => `${name} wins ${a} instead of ${b}`,
      other: (a: string, b: string) => `This list (${name}) wins ${a}; ${then} in its place wins ${b}.`,
    },
    {
      row: draws,
      own: (a: string, b: string) => `${a} of battles are drawn instead of ${b}`,
      other: (a: string, b: string) => `Draws: ${a} with this list, ${b} with ${then}.`,
    },
    {
      row: theirs,
      own: (a: string, b: string) => `${opponent} wins ${a} instead of ${b}`,
      other: (a: string, b: string) => `${opponent} wins ${a} against this list, ${b} against ${then}.`,
    },
  ];
  const moved = endings.filter((e) => clear(e.row.now, e.row.then, e.row.d));
  const still = endings.filter((e) => !moved.includes(e));
  const fig = (x: number) => formatPercent(x);
  const stillWords = (e: (typeof endings)[number]) =>
    e.row === wins
      ? `${otherList ? 'this list' : name}\u2019s wins (${fig(e.row.now)})`
      : e.row === draws
        ? `draws (${fig(e.row.now)})`
        : `${opponent}\u2019s wins (${fig(e.row.now)})`;
  const within = still.length && moved.length ? ` Within the dice\u2019s noise: ${still.map(stillWords).join(', ')}.` : '';
  const lead = otherList
    ? same
      ? `On these dice the two lists do the same: every battle of this list (${name}) ends as it does with ${then}.`
      : moved.length
        ? `${moved.map((e) => e.other(fig(e.row.now), fig(e.row.then))).join(' ')}${within}`
        : `This list (${name}) and ${then} end their battles alike within the dice\u2019s noise: ${name} wins ${fig(wins.now)} and ${fig(wins.then)}, draws ${fig(draws.now)} and ${fig(draws.then)}.`
    : same
      ? `On these dice your change makes no difference: every battle ends as it did with ${then}.`
      : moved.length
        ? `With your change: ${moved.map((e) => e.own(fig(e.row.now), fig(e.row.then))).join('; ')}.${within}`
        : `With your change: no way a battle ends moved beyond the dice\u2019s noise (${name} wins ${fig(wins.now)}, was ${fig(wins.then)}; draws ${fig(draws.now)}, were ${fig(draws.then)}).`;
  return lead;
}

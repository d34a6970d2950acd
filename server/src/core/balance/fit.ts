/**
 * The first fit on a field (BATTLE.md "The points estimate"): firepower F and durability H of each
 * member over the rest of the field from one Fire action's shares, and estimate = k * sqrt(F * H)
 * fitted by least squares in log space, with each member's leave-one-out prediction.
 */
import { Volleys } from './volleys';
import type { Share } from './volleys';
import type { FieldMember, LooRow, ReferenceField } from './field';

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/**
 * How one Fire action's effect becomes "share of the target destroyed per Fire action":
 * - 'sequential' (used): shields carry over from one Fire action to the next, so destroying a
 *   unit takes SH / (shields removed per Fire action) + HP / (hull damage per Fire action with
 *   shields down) Fire actions; its share per Fire action is one over that.
 * - 'one-volley' (BATTLE.md's wording, kept for comparison): the expected share of HP one Fire
 *   action removes from a unit at full shields, as if shields came back before every Fire action.
 */
export type ShareModel = 'sequential' | 'one-volley';

function pick(s: Share, model: ShareModel): number {
  return model === 'sequential' ? s.sequential : s.share;
}

/** Shares between field members: m[i][j] for i firing at j. */
function shareMatrix(v: Volleys, members: FieldMember[], model: ShareModel): number[][] {
  return members.map((a) => members.map((d) => pick(v.shareOf(a.profile, d.profile, a.off, d.def), model)));
}

interface Fit {
  k: number;
  /** Exponent c of estimate = k * (F * H)^c. */
  exponent: number;
  fitted: number;
  spreadLog: number;
  loo: LooRow[];
  own: ReferenceField['own'];
}

/** Least squares in log space: log p = log k + c * log(F * H), c fixed (0.5) or fitted. */
function regress(xs: number[], ys: number[], fitExponent: boolean): { logK: number; c: number } | undefined {
  if (xs.length === 0) return undefined;
  if (!fitExponent || xs.length < 3) return { logK: mean(ys.map((y, i) => y - 0.5 * xs[i]!)), c: 0.5 };
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (!(sxx > 0)) return undefined;
  const c = sxy / sxx;
  return { logK: my - c * mx, c };
}

/**
 * The fit on a field and its leave-one-out error: each member in turn is left out of the field
 * altogether (as a target, as an attacker and from the fit), and predicted from the rest.
 */
export function fitMatrix(members: FieldMember[], m: number[][], fitExponent = false): Fit {
  const n = members.length;
  const p = members.map((x) => x.points);
  // Sums over the rest of the field: dealt (share x points) and taken (share).
  const dealt = members.map((_, i) => m[i]!.reduce((s, v, j) => (j === i ? s : s + v * p[j]!), 0));
  const taken = members.map((_, i) => m.reduce((s, row, j) => (j === i ? s : s + row[i]!), 0));
  const fOf = (others: number, d: number) => (others > 0 ? d / others : 0);
  const hOf = (others: number, t: number) => (t > 0 ? others / t : Infinity);
  const logFH = (f: number, h: number) => (f > 0 && h > 0 && Number.isFinite(f * h) ? Math.log(f * h) : undefined);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = logFH(fOf(n - 1, dealt[i]!), hOf(n - 1, taken[i]!));
    if (x !== undefined && p[i]! > 0) {
      xs.push(x);
      ys.push(Math.log(p[i]!));
    }
  }
  const all = regress(xs, ys, fitExponent);
  const own: ReferenceField['own'] = [];
  const loo: LooRow[] = [];
  const residuals: number[] = [];
  for (let i = 0; i < n; i++) {
    const lx: number[] = [];
    const ly: number[] = [];
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const x = logFH(fOf(n - 2, dealt[j]! - m[j]![i]! * p[i]!), hOf(n - 2, taken[j]! - m[i]![j]!));
      if (x !== undefined && p[j]! > 0) {
        lx.push(x);
        ly.push(Math.log(p[j]!));
      }
    }
    const r = regress(lx, ly, fitExponent);
    const f = fOf(n - 1, dealt[i]!);
    const h = hOf(n - 1, taken[i]!);
    own.push({ firepower: f, durability: h, k: r ? Math.exp(r.logK) : NaN, exponent: r?.c ?? NaN });
    const row: LooRow = { name: members[i]!.name, faction: members[i]!.faction, class: members[i]!.class, points: p[i]! };
    const x = logFH(f, h);
    const pred = r && x !== undefined ? Math.exp(r.logK + r.c * x) : NaN;
    if (Number.isFinite(pred) && pred > 0) {
      row.predicted = pred;
      row.errorPct = ((p[i]! - pred) / pred) * 100;
      residuals.push(Math.log(p[i]! / pred));
    }
    loo.push(row);
  }
  return {
    k: all ? Math.exp(all.logK) : NaN,
    exponent: all?.c ?? NaN,
    fitted: xs.length,
    spreadLog: residuals.length ? Math.sqrt(mean(residuals.map((r) => r * r))) : NaN,
    loo,
    own,
  };
}

export const pct = (spreadLog: number) => (Math.exp(spreadLog) - 1) * 100;

/** The leave-one-out spread (percent) of a model on a field: for the README's comparison and the tests. */
export function looSpreadPct(members: FieldMember[], model: ShareModel, fitExponent: boolean, v = new Volleys()): number {
  return pct(fitMatrix(members, shareMatrix(v, members, model), fitExponent).spreadLog);
}

export function fitField(v: Volleys, members: FieldMember[]): Omit<ReferenceField, 'id' | 'source' | 'description' | 'available'> {
  const fit = fitMatrix(members, shareMatrix(v, members, 'sequential'));
  return {
    members,
    fitted: fit.fitted,
    k: fit.k,
    spreadLog: fit.spreadLog,
    spreadPct: pct(fit.spreadLog),
    loo: fit.loo,
    own: fit.own,
    index: new Map(members.map((x, i) => [x.key, i])),
    memo: { dealt: new Map(), taken: new Map() },
  };
}

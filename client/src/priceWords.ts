/**
 * "Price by battle" in words (names come from files: plain text in a notification). Apart from
 * priceByBattle.ts so that it is tested without VS Code (test/webview/price-words.test.ts).
 */
import type { BattlePriceResult } from '../../protocol';

/** The price without the card's name, for the progress lines under the title "Price by battle: NAME". */
export function battlePriceProgress(r: BattlePriceResult): string {
  if (r.price === undefined || r.low === undefined || r.high === undefined)
    return r.done ? `No battle price${r.reason ? ` — ${r.reason}` : ''}` : `${r.battles} battles played, no price yet…`;
  const printed = r.points !== undefined && r.ratio !== undefined ? ` Printed ${r.points} pts is ${r.ratio.toFixed(2)} × it.` : '';
  const est = r.estimate !== undefined ? ` The instant estimate says ≈ ${r.estimate}.` : '';
  // "Likely": the 95% interval, in a designer's words (as the lens and the hover say it; the CLI says 95%).
  // Every opposing fleet priced but not done: the interval is still being narrowed (the final figure can move).
  const sofar = r.done ? '' : r.fleets < r.tried ? `, from ${r.fleets} of ${r.tried} opposing fleets so far` : ', still refining';
  return `Battle price ≈ ${Math.round(r.price)} pts (likely ${Math.round(r.low)}–${Math.round(r.high)})${sofar}.${printed}${est}`;
}

/** The price with the card's name, for the message that stands alone. */
export function battlePriceWords(r: BattlePriceResult): string {
  const words = battlePriceProgress(r);
  return `${r.name}: ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}

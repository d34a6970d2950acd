/**
 * The collection (FORMATS.md "Collection"): a collection's own entries (a name that is no card, a
 * count below 1, a second collection in the workspace), and a fleet's copies beyond what the
 * collection in use owns (`FS-COLLECTION-SHORT`, on each name of the fleet that fields the card).
 */
import type { CollectionDocument, FleetDocument } from '../model/types';
import type { CheckContext } from './context';
import { activeCollection, shortfalls } from '../collection';
import { prepare } from '../model/suggest';
import { suggestMany } from '../model/yaml';
import { clip } from '../model/limits';

export function checkCollection(ctx: CheckContext, doc: CollectionDocument): void {
  const ws = ctx.ws;
  const first = activeCollection(ws);
  if (first && first.uri !== doc.uri) {
    const at = doc.owned?.keySpan ?? { start: 0, end: Math.max(0, doc.text.indexOf('\n') < 0 ? doc.text.length : doc.text.indexOf('\n')) };
    ctx.report(
      'FS-COLLECTION-SECOND',
      `Only one collection per workspace is read, the first by path (${clip(decodeURIComponent(first.uri.replace(/^.*\//, '')))}); this one is ignored: merge the two`,
      at,
    );
  }
  for (const e of doc.owned?.items ?? []) {
    if (e.count.value !== undefined && e.count.value < 1)
      ctx.report('FS-COUNT', `count is a whole number of at least 1, not ${e.count.value}`, e.count.span, { replacements: ['1'] });
    const name = e.unit.value;
    // A card as fleets find it: this workspace's own, else a bundled example's (a fleet of an example faction fields those).
    if (!name || !ws || !ws.hasOwnCards() || ws.resolve({ name }, 'ownFirst').candidates.length) continue;
    let pool = ctx.pools.get('all');
    if (!pool)
      ctx.pools.set(
        'all',
        (pool = prepare(
          ws
            .allCards()
            .map((c) => c.name)
            .filter(Boolean),
        )),
      );
    const near = suggestMany(name, pool, 3, ctx.suggestions);
    ctx.report(
      'FS-COLLECTION-UNKNOWN',
      `No card named "${clip(name)}" is in the workspace${near.length ? `; did you mean ${near.map((n) => `"${clip(n)}"`).join(' or ')}?` : ''}`,
      e.unit.span,
      near.length ? { replacements: near } : undefined,
    );
  }
}

/** A fleet's copies beyond the collection in use: nothing without a collection. */
export function checkOwnership(ctx: CheckContext, doc: FleetDocument): void {
  const collection = activeCollection(ctx.ws);
  if (!collection) return;
  for (const s of shortfalls(doc, collection, ctx.ws))
    for (const at of s.sites) ctx.report('FS-COLLECTION-SHORT', `You own ${s.owned || 'no'} ${clip(s.name)}; this fleet fields ${s.fielded}`, at);
}

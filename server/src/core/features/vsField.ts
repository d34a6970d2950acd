/**
 * A card against the field, set up from the workspace (FORMATS.md `sim --vs-field`; the "vs the
 * field" lens): the card's profile, and every card of the workspace without an error that the
 * simulator can run, or the bundled example cards when the workspace has none. The run itself is
 * sim/vs-field.ts, on plain data, so that the language server can hand it to a worker thread.
 */
import type { Problem } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { profileFromCard } from '../sim/index';
import type { FieldCard, VsFieldInput } from '../sim/vs-field';
import { exampleWorkspace } from '../examples/index';

/** A card's errors (service.ts passes the validator's `cardErrors`: features do not use check/ themselves). */
export type CardErrors = (ref: CardRef, ws: Workspace) => Problem[];

function fieldCardOf(ref: CardRef): FieldCard | { error: string } {
  const p = profileFromCard(ref.card);
  if (!p.profile) return { error: p.error ?? 'it cannot be simulated' };
  return {
    name: ref.name,
    faction: ref.faction,
    class: ref.cls ?? ref.classRaw,
    ...(ref.points !== undefined ? { points: ref.points } : {}),
    profile: p.profile,
  };
}

/** The cards of `ws` with no error that the simulator can run, and the others with why. */
function usableCards(ws: Workspace, errors: CardErrors): { field: FieldCard[]; left: VsFieldInput['left'] } {
  const field: FieldCard[] = [];
  const left: VsFieldInput['left'] = [];
  for (const ref of ws.allCards()) {
    const errs = errors(ref, ws);
    if (errs.length) {
      left.push({
        name: ref.name,
        faction: ref.faction,
        reason: `${errs.length === 1 ? 'an error' : `${errs.length} errors`} (${errs[0]!.code}: ${errs[0]!.message})`,
      });
      continue;
    }
    const c = fieldCardOf(ref);
    if ('error' in c) left.push({ name: ref.name, faction: ref.faction, reason: c.error });
    else field.push(c);
  }
  field.sort((a, b) => a.faction.localeCompare(b.faction) || a.name.localeCompare(b.name));
  return { field, left };
}

/**
 * `ref` (a card of `ws`, or of the examples) against the field of `ws` as `side`, at `range` inches
 * (undefined: every weapon fires). Refused, with a sentence, when the card itself cannot be simulated.
 */
export function prepareVsField(
  ws: Workspace,
  ref: CardRef,
  side: 'attacker' | 'defender',
  range: number | undefined,
  errors: CardErrors,
): { input: VsFieldInput } | { refused: string } {
  const card = fieldCardOf(ref);
  if ('error' in card) return { refused: card.error };
  const given = usableCards(ws, errors);
  const left = given.left;
  let field = given.field;
  let source: VsFieldInput['source'] = 'cards';
  if (field.length === 0) {
    ({ field } = usableCards(exampleWorkspace(), errors));
    source = 'examples';
  }
  return { input: { side, card, field, ...(range !== undefined ? { range } : {}), source, left } };
}

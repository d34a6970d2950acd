/**
 * What the Fleet view sends for its edits and what it makes of the answer, apart from VS Code (no
 * `vscode` import, so that the protocol tests drive this very code against the bundled server).
 *
 * A tree names its entries by index, and the index is only right for the text the tree was drawn
 * from: every edit of an entry sends the roster's `version` and the entry's unit (and embarked
 * unit's name), so that the server refuses an edit of a text that changed since, instead of
 * removing the entry that moved into the clicked one's place.
 */
import type { TextEdit } from 'vscode-languageserver-protocol';
import type { RosterData, RosterEditParams, RosterEditResult, RosterEntryData } from '../../protocol';

/** A roster edit as the user asked for it in the tree (or the title bar, for Add). */
export type RosterAction =
  | { action: 'add'; card: string }
  | { action: 'remove'; entry: RosterEntryData; copies: 'all' | 'one' }
  | { action: 'embark'; entry: RosterEntryData; card: string }
  | { action: 'disembark'; entry: RosterEntryData; embarked: number };

/**
 * The request for `a` on the tree drawn from `roster`. `editorVersion` is the editor's version of
 * the document now: an add names no entry and goes to the text as it is; the others name their
 * entry in the tree's text, so they send the tree's version.
 */
export function rosterEditParams(roster: RosterData, a: RosterAction, editorVersion: number | undefined): RosterEditParams {
  const uri = roster.uri;
  const version = (v: number | undefined) => (v !== undefined ? { version: v } : {});
  switch (a.action) {
    case 'add':
      return { uri, action: 'add', card: a.card, ...version(editorVersion) };
    case 'remove':
      return { uri, action: 'remove', entry: a.entry.index, copies: a.copies, unit: a.entry.unit, ...version(roster.version) };
    case 'embark':
      return { uri, action: 'embark', entry: a.entry.index, card: a.card, unit: a.entry.unit, ...version(roster.version) };
    case 'disembark': {
      const name = a.entry.embarked[a.embarked]?.name;
      return {
        uri,
        action: 'disembark',
        entry: a.entry.index,
        embarked: a.embarked,
        unit: a.entry.unit,
        ...(name !== undefined ? { name } : {}),
        ...version(roster.version),
      };
    }
  }
}

/** What the view does with the server's answer: apply the edit, or say why not (and redraw a stale tree). */
export type RosterEditOutcome = { apply: TextEdit } | { message: string; redraw: boolean };

/**
 * The outcome of `result` for an editor whose document is at `editorVersion` when the answer
 * arrives: an edit computed on another version (the user typed meanwhile) is not applied either.
 */
export function rosterEditOutcome(result: RosterEditResult | null, editorVersion: number | undefined): RosterEditOutcome {
  if (!result) return { message: 'This is not a fleet list the language server knows.', redraw: true };
  if ('refused' in result) return { message: result.message, redraw: result.refused === 'stale' };
  if (result.version !== undefined && editorVersion !== undefined && result.version !== editorVersion)
    return { message: 'The fleet list changed while the edit was made. Nothing was changed; the view is redrawn: try again.', redraw: true };
  return { apply: result.edit };
}

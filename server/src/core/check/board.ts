/** Section 21: the Command Board (doctrine, CP, one faction ability, six command abilities). */
import { COMMAND_BOARD, DOCTRINES, type Doctrine } from '../rules/data';
import type { FactionDocument } from '../model/types';
import { suggest } from '../model/yaml';
import { cpPerRound } from '../model/derived';
import { checkTextRanges, type CheckContext } from './context';
import { withArticle } from '../rules/words';

export function checkBoard(ctx: CheckContext, doc: FactionDocument): void {
  const head = doc.faction.keySpan ?? doc.faction.span;
  const doctrines = Object.keys(DOCTRINES) as Doctrine[];
  if (doc.doctrine.value === undefined && doc.doctrine.raw.trim() !== '') {
    const s = suggest(doc.doctrine.raw, doctrines);
    ctx.report(
      'FS-DOCTRINE',
      `Unknown doctrine "${doc.doctrine.raw.trim()}"; doctrines: ${doctrines.map((d) => `${d} (${DOCTRINES[d]} CP)`).join(', ')}`,
      doc.doctrine.span,
      s ? { replacements: [s] } : undefined,
    );
  }
  const doctrineCp = doc.doctrine.value ? DOCTRINES[doc.doctrine.value] : undefined;
  const sources = doc.cpSources?.items ?? [];
  const sourcesKnown = sources.length > 0 && sources.every((s) => s.cp.value !== undefined);
  const sourceSum = sources.reduce((t, s) => t + (s.cp.value ?? 0), 0);
  for (const s of sources) {
    if (s.cp.value !== undefined && s.cp.value < 0)
      ctx.report('FS-CP-MISMATCH', `A CP source gives a whole number of CP (0 or more), not ${s.cp.value}`, s.cp.span);
  }
  if (doc.cp?.value !== undefined) {
    const cp = doc.cp.value;
    if (sourcesKnown && cp !== sourceSum) {
      ctx.report('FS-CP-MISMATCH', `cp ${cp} does not match its sources, which add up to ${sourceSum} CP`, doc.cp.span, { replacements: [String(sourceSum)] });
    } else if (!sources.length && doctrineCp !== undefined && cp !== doctrineCp) {
      ctx.report(
        'FS-CP-MISMATCH',
        `${withArticle(doc.doctrine.value ?? '', true)} doctrine generates ${doctrineCp} CP per round, not ${cp} (Light 2, Standard 3, Elite 4)`,
        doc.cp.span,
        { replacements: [String(doctrineCp)] },
      );
    } else if (cp > COMMAND_BOARD.maxCpPerRound) {
      ctx.report('FS-CP-MAX', `No faction generates more than ${COMMAND_BOARD.maxCpPerRound} CP per round; this board says ${cp}`, doc.cp.span, {
        replacements: [String(COMMAND_BOARD.maxCpPerRound)],
      });
    }
  } else if (sourcesKnown && sourceSum > COMMAND_BOARD.maxCpPerRound) {
    ctx.report(
      'FS-CP-MAX',
      `No faction generates more than ${COMMAND_BOARD.maxCpPerRound} CP per round; these sources add up to ${sourceSum}`,
      doc.cpSources!.keySpan,
    );
  }

  if (!doc.factionAbilityKey) {
    ctx.report('FS-FACTION-ABILITY', 'A Command Board has exactly one faction ability: add "factionAbility:" with a name and text', head);
  } else if (doc.factionAbility?.text.value) {
    checkTextRanges(ctx, doc.factionAbility.text.span, 'the faction ability');
  }

  const cas = doc.commandAbilities;
  if (!cas) {
    ctx.report('FS-COMMAND-ABILITY-COUNT', `A Command Board has exactly ${COMMAND_BOARD.commandAbilities} command abilities: add "commandAbilities:"`, head);
    return;
  }
  if (cas.items.length !== COMMAND_BOARD.commandAbilities) {
    ctx.report(
      'FS-COMMAND-ABILITY-COUNT',
      `A Command Board has exactly ${COMMAND_BOARD.commandAbilities} command abilities; this one has ${cas.items.length}`,
      cas.keySpan,
    );
  }
  const perRound = cpPerRound(doc);
  const seen = new Map<string, number>();
  for (const ca of cas.items) {
    const cost = ca.cost.value;
    if (cost !== undefined && cost < COMMAND_BOARD.minAbilityCost) {
      ctx.report(
        'FS-COMMAND-ABILITY-FIELD',
        `A command ability costs a whole number of CP of at least ${COMMAND_BOARD.minAbilityCost}, not ${cost}`,
        ca.cost.span,
        { replacements: [String(COMMAND_BOARD.minAbilityCost)] },
      );
    } else if (cost !== undefined && perRound !== undefined && cost > perRound) {
      ctx.report(
        'FS-COMMAND-ABILITY-COST',
        `Costs ${cost} CP but the faction generates ${perRound} CP per round, and CP cannot be saved: it can never be paid`,
        ca.cost.span,
      );
    }
    const name = ca.name.value?.toLowerCase();
    if (name) {
      if (seen.has(name))
        ctx.report('FS-COMMAND-ABILITY-DUPLICATE', `"${ca.name.value}" is already a command ability on this board; names are unique`, ca.name.span);
      else seen.set(name, ca.name.span.start);
    }
    if (ca.effect.value) checkTextRanges(ctx, ca.effect.span, 'the effect');
    if (ca.timing.value) checkTextRanges(ctx, ca.timing.span, 'the timing');
  }
}

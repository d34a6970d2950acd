/** Section 21: the Command Board (doctrine, CP, one faction ability, six command abilities). */
import { COMMAND_BOARD, DOCTRINES, type Doctrine } from '../rules/data';
import type { FactionDocument, Span } from '../model/types';
import { suggest } from '../model/yaml';
import { cpPerRound } from '../model/derived';
import { checkTextRanges, type CheckContext } from './context';
import { count } from '../rules/words';
import { clip } from '../model/limits';

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
  checkCp(
    ctx,
    doc,
    doctrineCp,
    sourcesKnown ? sourceSum : undefined,
    sources.map((s) => s.cp.value!),
  );
  if (ctx.ws) checkOneBoard(ctx, doc);

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
    if (ca.effect.value) {
      checkTextRanges(ctx, ca.effect.span, 'the effect');
      checkNoLeadershipTest(ctx, ca.effect.span);
    }
    if (ca.timing.value) checkTextRanges(ctx, ca.timing.span, 'the timing');
  }
}

/**
 * Section 21: "CP generation follows the faction's Command Doctrine". The doctrine says how many CP
 * the faction generates; `cp` restates it and `cpSources` split it (the Consumed board's bursts),
 * so each must come to the doctrine's figure, and none may pass the most any faction generates.
 * One inconsistency is one problem: on `cp` when it is given (it must match its sources and the
 * doctrine), else on the sources' key.
 */
function checkCp(ctx: CheckContext, doc: FactionDocument, doctrineCp: number | undefined, sourceSum: number | undefined, parts: number[]): void {
  const cp = doc.cp?.value;
  const doctrine = doc.doctrine.value;
  const generates = doctrine && doctrineCp !== undefined ? `the ${doctrine} doctrine generates ${doctrineCp} CP per round` : undefined;
  const sum = parts.join(' + ');
  const max = COMMAND_BOARD.maxCpPerRound;
  const hasSources = (doc.cpSources?.items.length ?? 0) > 0;
  const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
  if (cp !== undefined) {
    if (sourceSum !== undefined && cp !== sourceSum) {
      // When cp is the doctrine's figure, the sources are what is off: cp needs no change.
      const off = generates && cp === doctrineCp;
      ctx.report(
        'FS-CP-MISMATCH',
        `cp ${cp} does not match its sources, which add up to ${sourceSum} CP (${sum})${generates ? `; ${generates}${off ? ', so the sources are off' : ''}` : ''}`,
        doc.cp!.span,
        off ? undefined : { replacements: [String(doctrineCp ?? sourceSum)] },
      );
    } else if (generates && cp !== doctrineCp && (!hasSources || cp <= max)) {
      ctx.report(
        'FS-CP-MISMATCH',
        `${capital(generates)}, not ${cp}${sourceSum === cp ? `; cp and its sources (${sum}) must both come to the doctrine's CP` : ''} (Light 2, Standard 3, Elite 4)`,
        doc.cp!.span,
        { replacements: [String(doctrineCp)] },
      );
    } else if (cp > max) {
      ctx.report('FS-CP-MAX', `No faction generates more than ${max} CP per round; this board says ${cp}`, doc.cp!.span, {
        replacements: [String(doctrineCp ?? max)],
      });
    }
    return;
  }
  if (sourceSum === undefined) return;
  if (sourceSum > max) {
    ctx.report('FS-CP-MAX', `No faction generates more than ${max} CP per round; these sources add up to ${sourceSum}`, doc.cpSources!.keySpan);
  } else if (generates && sourceSum !== doctrineCp) {
    ctx.report(
      'FS-CP-MISMATCH',
      `The CP sources add up to ${sourceSum} (${sum}), but ${generates}; the sources split the doctrine's CP (Light 2, Standard 3, Elite 4)`,
      doc.cpSources!.keySpan,
    );
  }
}

/**
 * Section 21: "Every faction possesses a Command Board": one. A second faction file for the same
 * faction is a second board; each is reported on its faction name, linked to the others, as two
 * cards of one name are.
 */
function checkOneBoard(ctx: CheckContext, doc: FactionDocument): void {
  const faction = doc.faction.value?.trim();
  if (!faction || !ctx.ws) return;
  const key = faction.toLowerCase();
  const others = ctx.ws.factionDocuments().filter((d) => d.uri !== doc.uri && !d.unread && d.faction.value?.trim().toLowerCase() === key);
  if (!others.length) return;
  const shown = others.slice(0, 5);
  ctx.report(
    'FS-DUPLICATE-BOARD',
    `${clip(faction)} already has a Command Board (${count(others.length, 'other faction file')}); a faction has exactly one, with one doctrine`,
    doc.faction.span,
    undefined,
    shown.map((d) => ({
      uri: d.uri,
      span: d.faction.span,
      message: `${clip(faction)}'s Command Board is also defined here${d.doctrine.value ? ` (${d.doctrine.value})` : ''}`,
    })),
  );
}

/**
 * Section 21: Command Abilities "never require Leadership tests" (FAQ: "Only Orders require LD
 * rolls"). An effect that asks for one (make, pass, take or roll an LD or Leadership test, roll or
 * check) is written as an Order would be: a warning on those words. A figure that only changes LD
 * ("+1 LD die", "reroll one failed LD roll") asks for no test.
 */
const LEADERSHIP_TEST =
  /\b(?:make|makes|pass|passes|take|takes|roll|rolls|requires?)\s+(?:an?\s+|its\s+|their\s+)?(?:LD|Leadership)\s+(?:test|roll|check)s?\b/gi;

function checkNoLeadershipTest(ctx: CheckContext, span: Span): void {
  const src = ctx.doc.text.slice(span.start, span.end);
  LEADERSHIP_TEST.lastIndex = 0;
  const m = LEADERSHIP_TEST.exec(src);
  if (!m) return;
  const start = span.start + m.index;
  ctx.report(
    'FS-COMMAND-ABILITY-LD',
    `Command Abilities never require Leadership tests (section ${COMMAND_BOARD.section}: only Orders require LD rolls); "${m[0]}" asks for one: pay the CP and apply the effect, or make it a ship's Order`,
    { start, end: start + m[0].length },
  );
}

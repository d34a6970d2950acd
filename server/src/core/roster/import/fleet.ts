/** The fleet list written from what was read: hosts found for the units embarked on them, then the YAML with the problems as comments. */
import { clean } from '../clean';
import { guessNote, candidatesNote } from '../../model/importNotes';
import { IMPORT_LIMITS, type EntryGuess, type ImportResult, type ImportedEntry } from './types';
import { type ImportCard, wordsKey } from './names';

/**
 * "Veilwing Fighters embarked on a cruiser": each entry read with a host goes aboard the entry it
 * names, by its card's class ("a cruiser") or its card ("the Lumen Cruiser", "the Cruiser"), the first
 * such entry of the list that is not itself aboard another. One copy of a host of several copies
 * takes them (the entry is split in two: the others fly without). A host the list does not hold is
 * said, and the unit stays an entry of its own.
 */
export function embarkOnHosts(
  entries: (ImportedEntry & { host?: string })[],
  pick: (name: string) => ImportCard | undefined,
  report: (line: number, why: string) => void,
): void {
  const singular = (k: string) => new Set([k, k.replace(/ies$/, 'y'), k.replace(/([^s])s$/, '$1')]);
  for (let i = 0; i < entries.length; i++) {
    const rider = entries[i]!;
    if (rider.host === undefined) continue;
    const host = rider.host;
    delete rider.host;
    const forms = singular(wordsKey(host).replace(/^(?:a|an|the|my|one)\s+/, ''));
    const fits = (e: ImportedEntry, how: 'class' | 'name') => {
      const cls = wordsKey(pick(e.unit)?.cls ?? '');
      const name = wordsKey(e.unit);
      return how === 'class' ? forms.has(cls) : forms.has(name) || [...forms].some((f) => name.endsWith(` ${f}`));
    };
    const free = (e: ImportedEntry & { host?: string }, j: number) => j !== i && e.host === undefined;
    let at = entries.findIndex((e, j) => free(e, j) && fits(e, 'name'));
    if (at < 0) at = entries.findIndex((e, j) => free(e, j) && fits(e, 'class'));
    if (at < 0) {
      report(rider.line, `embarked on "${host.slice(0, 60)}", but no entry of the list is one: read as an entry of its own`);
      continue;
    }
    let target = entries[at]!;
    if (target.count > 1) {
      target.count--;
      const one: ImportedEntry = { ...target, count: 1, embark: [...target.embark] };
      if (target.embarkGuess) one.embarkGuess = [...target.embarkGuess];
      entries.splice(at + 1, 0, one);
      target = one;
      if (at < i) i++;
    }
    for (let k = 0; k < rider.count; k++) {
      target.embark.push(rider.unit);
      if (rider.guess || target.embarkGuess) (target.embarkGuess ??= target.embark.slice(0, -1).map(() => undefined)).push(rider.guess);
    }
    entries.splice(i, 1);
    i--;
  }
}

/** A YAML scalar: plain when it reads back as the same string, else double-quoted (JSON's escapes are YAML's). */
export function yamlScalar(s: string): string {
  const plain =
    /^[\p{L}\p{N}][\p{L}\p{N} '()&.,/-]*$/u.test(s) &&
    !/[ ]$/.test(s) &&
    !/^(?:true|false|yes|no|on|off|null|~|y|n)$/i.test(s) &&
    !/^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+|0x[0-9a-f]+|0o[0-7]+|\.inf|\.nan)$/i.test(s) &&
    !/:\s|\s#/.test(s);
  return plain ? s : JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function comment(s: string): string {
  return clean(s).slice(0, IMPORT_LIMITS.problemText);
}

export function writeFleet(r: Omit<ImportResult, 'fleet'>): string {
  const out: string[] = [`# Imported from a roster (${r.format === 'post' ? 'a posted list' : `the ${r.format} export`}) by fabled-star import.`];
  for (const p of r.problems) {
    const near = p.candidates ?? (p.closest !== undefined ? [p.closest] : []);
    out.push(`# line ${p.line}: ${comment(p.text)} (${p.why}${near.length ? `; ${candidatesNote(near.map(comment))}` : ''})`);
  }
  out.push(`name: ${yamlScalar(r.name)}`);
  if (r.faction !== undefined) out.push(`faction: ${yamlScalar(r.faction)}`);
  else out.push('# faction: the text names none and its units name no card; give --faction NAME');
  if (r.points !== undefined)
    out.push(`points: ${r.points}${r.pointsFrom === 'game size' ? ' # the text gives no limit: the smallest game size that holds the units' : ''}`);
  if (r.objectives !== undefined) out.push(`objectives: ${r.objectives}`);
  if (r.entries.length === 0) out.push('units: []');
  else out.push('units:');
  // A name read as the closest card says so on its line (check/fleet.ts warns there, with the other candidates as fixes).
  const note = (g: EntryGuess | undefined) => (g ? ` # ${guessNote(comment(g.written), g.others.map(comment))}` : '');
  for (const e of r.entries) {
    out.push(`  - unit: ${yamlScalar(e.unit)}${note(e.guess)}`);
    if (e.count !== 1) out.push(`    count: ${e.count}`);
    if (e.embark.length) {
      out.push('    embark:');
      e.embark.forEach((x, i) => out.push(`      - ${yamlScalar(x)}${note(e.embarkGuess?.[i])}`));
    }
  }
  return out.join('\n') + '\n';
}

/**
 * What the e2e test expects, computed without the language server: the CLI's own output (a second
 * front end over the same core) and the document model. The test then checks that VS Code shows
 * the same thing, which is the point of the test: the packaged extension, the server bundle and the
 * VS Code wiring agree with the CLI a user would run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import type { FleetDocument } from '../../server/src/core/model/types';
import type { BattleResult, SimulationResult } from '../../server/src/core/sim/types';
import { findFiles } from './codeServer';
import { BATTLE_PRECISION } from '../../server/src/core/rules/data';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'bin', 'fabled-star.js');

export interface CliDiagnostic {
  file: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
}

/** `fabled-star check --format json .` run inside `folder` (exit status 1 just means errors were found). */
export function cliCheck(folder: string): { diagnostics: CliDiagnostic[]; summary: { errors: number; warnings: number; infos: number } } {
  let out: string;
  try {
    out = execFileSync(process.execPath, [CLI, 'check', '--format', 'json', '.'], { cwd: folder, encoding: 'utf8' });
  } catch (e) {
    const err = e as { status?: number; stdout?: string };
    if (err.status !== 1 || !err.stdout) throw e;
    out = err.stdout;
  }
  return JSON.parse(out) as ReturnType<typeof cliCheck>;
}

/** `fabled-star sim --format json` over the cards of `folder`. */
export function cliSim(folder: string, attacker: string, defender: string, extra: string[] = []): SimulationResult {
  const out = execFileSync(process.execPath, [CLI, 'sim', '--format', 'json', '--cards', '.', '--attacker', attacker, '--defender', defender, ...extra], {
    cwd: folder,
    encoding: 'utf8',
  });
  return JSON.parse(out) as SimulationResult;
}

/** `fabled-star battle --format json` of two fleet files of `folder` (paths relative to it), cards from the whole folder. */
export function cliBattle(folder: string, fleet: string, vs: string, extra: string[] = []): BattleResult {
  const out = execFileSync(process.execPath, [CLI, 'battle', '--format', 'json', '--cards', '.', '--fleet', fleet, '--vs', vs, ...extra], {
    cwd: folder,
    encoding: 'utf8',
  });
  return JSON.parse(out) as BattleResult;
}

/** The battle as the battle view plays it: until every chance is sure to the view's precision, the trials the most (`battle --precision`). */
export function cliViewBattle(folder: string, fleet: string, vs: string, extra: string[] = []): BattleResult {
  return cliBattle(folder, fleet, vs, ['--precision', String(BATTLE_PRECISION.view), ...extra]);
}

/** Every card, fleet and faction file of `folder`, loaded into a core Workspace. */
export function loadWorkspace(folder: string): Workspace {
  const ws = new Workspace();
  for (const f of findFiles(folder, (n) => /\.(unit|faction|fleet)\.ya?ml$/.test(n))) {
    ws.set(`file://${f}`, readFileSync(f, 'utf8'));
  }
  return ws;
}

/**
 * A fleet's points total added up here from the cards' `points` (each copy, embarked units
 * included, FORMATS.md), deliberately not with the server's fleetSummary, so the status bar is
 * checked against an independent sum.
 */
export function fleetPoints(ws: Workspace, fleet: FleetDocument): { total: number; limit: number | undefined } {
  const faction = fleet.faction.value;
  // A card of another faction is an error in a fleet, but its points count (the error says it does
  // not belong); an unknown name adds nothing.
  const points = (name: string | undefined): number => {
    if (!name) return 0;
    const card = (faction ? ws.findCards(name, faction)[0] : undefined) ?? ws.findCards(name)[0];
    return card?.card.points.value ?? 0;
  };
  let total = 0;
  for (const e of fleet.units?.items ?? []) {
    const each = points(e.unit.value) + (e.embark?.items ?? []).reduce((s, x) => s + points(x.value), 0);
    total += each * (e.count.value ?? 1);
  }
  return { total, limit: fleet.points.value };
}

export function relativeTo(folder: string, file: string): string {
  return relative(folder, file).split('\\').join('/');
}

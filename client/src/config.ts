/**
 * The settings the client itself reads, read and defaulted in this one place, per resource (the
 * server reads its own share, `Settings` in protocol/, through workspace/configuration). Bounds and
 * types are the manifest's (protocol/settings.ts); a value that cannot be taken as given is said in
 * a warning naming the setting and the value used, once per value.
 */
import * as vscode from 'vscode';
import { type EngagementOptions } from '../../protocol/simulation';
import { settingValue, type SettingProblem } from '../../protocol/settings';

export const SECTION = 'fabledStar';

const warned = new Set<string>();

/** Options for `fabledStar/simulate` from `fabledStar.simulation.*`; the manifest's defaults and bounds are the option table's (a test). */
export function simulationOptions(resource?: vscode.Uri): EngagementOptions {
  const c = vscode.workspace.getConfiguration(`${SECTION}.simulation`, resource);
  const problems: SettingProblem[] = [];
  // `inspect` tells a value the user set from the manifest's default, which get() also returns.
  const read = (key: string): unknown => {
    const i = c.inspect(key);
    const given = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    return settingValue(`${SECTION}.simulation.${key}`, given, problems);
  };
  const options: EngagementOptions = { trials: read('trials') as number, seed: read('seed') as number, rounds: read('rounds') as number };
  // No range (null, the default) means what the CLI means without --range: every weapon fires in
  // the volley and the engagement starts at the rules' default distance.
  const range = read('range');
  if (typeof range === 'number') options.range = range;
  for (const p of problems) {
    if (warned.has(p.message)) continue;
    warned.add(p.message);
    void vscode.window.showWarningMessage(`Fabled Star settings: ${p.message}`);
  }
  return options;
}

/** The paper of Print Unit Cards, `fabledStar.cards.paper` (the manifest's enum; a value it does not list is said and A4 used). */
export function cardsPaper(resource?: vscode.Uri): 'a4' | 'letter' {
  const i = vscode.workspace.getConfiguration(SECTION, resource).inspect('cards.paper');
  const problems: SettingProblem[] = [];
  const paper = settingValue(`${SECTION}.cards.paper`, i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue, problems);
  for (const p of problems) {
    if (warned.has(p.message)) continue;
    warned.add(p.message);
    void vscode.window.showWarningMessage(`Fabled Star settings: ${p.message}`);
  }
  return paper === 'letter' ? 'letter' : 'a4';
}

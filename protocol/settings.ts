/**
 * The settings' one table is the extension manifest: package.json's `contributes.configuration`
 * (what VS Code shows and checks). The server reads its bounds and types from it here, so a bound
 * is written once; docs/settings.md is generated from it (scripts/build-settings-docs.ts), and
 * DEFAULT_SETTINGS is checked against its defaults by a test.
 *
 * A value of the wrong type or out of bounds is not clamped in silence: `readSettings` says which
 * setting, what was given and what is used instead, and the server shows that as a warning.
 */
import manifest from '../package.json';

/** One setting as the manifest declares it (the JSON Schema keywords the server honours). */
export interface SettingDeclaration {
  type: string | readonly string[];
  default: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  enum?: readonly string[];
  scope?: string;
  description?: string;
  markdownDescription?: string;
}

/** Every contributed setting by its full name (`fabledStar.liveOdds.trials`). */
export const SETTING_DECLARATIONS: Readonly<Record<string, SettingDeclaration>> = manifest.contributes.configuration.properties;

/** A value a setting could not take as given: the setting, the value given, the value used and the sentence that says so. */
export interface SettingProblem {
  setting: string;
  given: unknown;
  used: unknown;
  message: string;
}

function shown(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : JSON.stringify(v);
  return s ?? String(v);
}

function typeWords(type: string | readonly string[]): string {
  const words: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', null: 'null' };
  return (typeof type === 'string' ? [type] : type).map((t) => words[t] ?? t).join(' or ');
}

/**
 * The value a setting takes from what the client sent (`undefined`: not set, the default, no
 * problem). Wrong types take the default; a number out of bounds is held at the bound; a fraction
 * for a whole number is rounded; text past its length is cut. Each says so.
 */
export function settingValue(setting: string, given: unknown, problems: SettingProblem[]): unknown {
  const d = SETTING_DECLARATIONS[setting];
  if (!d) throw new Error(`${setting} is not a contributed setting`);
  if (given === undefined) return d.default;
  const types = typeof d.type === 'string' ? [d.type] : d.type;
  const say = (used: unknown, why: string): unknown => {
    problems.push({ setting, given, used, message: `${setting} is ${shown(given)}: ${why}; ${shown(used)} is used.` });
    return used;
  };
  if (given === null) return types.includes('null') ? null : say(d.default, `it must be ${typeWords(d.type)}`);
  const isNumber = typeof given === 'number' && Number.isFinite(given);
  if (isNumber && (types.includes('integer') || types.includes('number'))) {
    let v = given;
    if (!types.includes('number') && !Number.isInteger(v)) v = Math.round(v);
    if (d.minimum !== undefined && v < d.minimum) return say(d.minimum, `the least it takes is ${d.minimum}`);
    if (d.maximum !== undefined && v > d.maximum) return say(d.maximum, `the most it takes is ${d.maximum}`);
    return v === given ? v : say(v, 'it takes a whole number');
  }
  if (typeof given === 'boolean' && types.includes('boolean')) return given;
  if (typeof given === 'string' && types.includes('string')) {
    if (d.enum && !d.enum.includes(given)) return say(d.default, `it must be one of ${d.enum.join(', ')}`);
    if (d.maxLength !== undefined && given.length > d.maxLength) return say(given.slice(0, d.maxLength), `it takes at most ${d.maxLength} characters`);
    return given;
  }
  return say(d.default, `it must be ${typeWords(d.type)}`);
}

/**
 * `--variant NAME` (may repeat) and `--compare`, the rule variants from other games (BATTLE.md
 * "Rule variants"), read the same way by `sim` and `battle`: their option rows, their help lines and
 * the check that turns them into the core's choices (an unknown name, a conflicting pair or a bad
 * parameter is a usage problem that says why).
 */
import { parseVariants, variantHelp, type VariantChoice } from '../core/sim/variants/index';
import type { OptionRow } from './args';

export const VARIANT_OPTIONS = {
  variant: { type: 'string', multiple: true },
  compare: { type: 'boolean' },
} as const satisfies Record<string, OptionRow>;

/** The help lines of the two flags, with every variant and its parameters. */
export const VARIANT_HELP = `  --variant NAME           play a rule variant from another game; may repeat; NAME:param=value
                           sets a parameter (e.g. retreat:threshold=0.3). The variants:
${variantHelp('                             ')}
  --compare                with --variant: also play the standard rules from the same seed and
                           show them beside the variant, with the difference`;

/** The chosen variants and whether to compare them, or the exit status after a usage problem. */
export function readVariantFlags(
  values: { variant?: string[]; compare?: boolean },
  usage: (...lines: string[]) => 2,
): { choices: VariantChoice[]; compare: boolean } | 2 {
  const v = parseVariants(values.variant ?? []);
  if (!v.choices) return usage(...v.errors.map((e) => `--variant: ${e}`));
  if (values.compare && !v.choices.length) return usage('--compare needs at least one --variant NAME (it shows the variant beside the standard rules).');
  return { choices: v.choices, compare: values.compare === true };
}

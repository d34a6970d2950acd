/**
 * `--variant NAME` (may repeat) and `--compare`, the rule variants from other games (BATTLE.md
 * "Rule variants"), read the same way by `sim` and `battle`: their option rows, their help lines and
 * the check that turns them into the core's choices (an unknown name, a conflicting pair or a bad
 * parameter is a usage problem that says why).
 */
import { FabledService } from '../core/service';
import { CARDS_OPTION, type CommandSpec, type OptionRow } from './args';

/** A rule variant chosen, with its parameters. */
type VariantChoice = NonNullable<ReturnType<typeof FabledService.parseVariants>['choices']>[number];

export const VARIANT_OPTIONS = {
  variant: { type: 'string', multiple: true },
  compare: { type: 'boolean' },
} as const satisfies Record<string, OptionRow>;

/** The help lines of the two flags, with every variant and its parameters. */
export const VARIANT_HELP = `  --variant NAME           play a rule variant from another game; may repeat; NAME:param=value
                           sets a parameter (e.g. retreat:threshold=0.3). The variants:
${FabledService.variantHelp('                             ')}
  --compare                with --variant: also play the standard rules from the same seed and
                           show them beside the variant, with the difference`;

/** The chosen variants and whether to compare them, or the exit status after a usage problem. */
export function readVariantFlags(
  values: { variant?: string[]; compare?: boolean },
  usage: (...lines: string[]) => 2,
): { choices: VariantChoice[]; compare: boolean } | 2 {
  const v = FabledService.parseVariants(values.variant ?? []);
  if (!v.choices) return usage(...v.errors.map((e) => `--variant: ${e}`));
  if (values.compare && !v.choices.length) return usage('--compare needs at least one --variant NAME (it shows the variant beside the standard rules).');
  return { choices: v.choices, compare: values.compare === true };
}

/** The required flag of one side of a two-sided command: `--fleet FILE`. */
type SideRow = { type: 'string'; required: string };

/**
 * The option table of a command that plays one side against another (`sim`, `battle`): a required
 * flag for each side (`sides` gives the word for its value), `--cards`, the run's own `flags`, and
 * the variant flags; it writes text (default) or JSON.
 */
export function twoSidedCommand<S extends string, F extends Record<string, OptionRow>>(spec: {
  name: string;
  help: string;
  sides: Record<S, string>;
  flags: F;
}): CommandSpec<Record<S, SideRow> & { cards: typeof CARDS_OPTION } & F & typeof VARIANT_OPTIONS> {
  const sides = Object.fromEntries(Object.entries<string>(spec.sides).map(([flag, value]) => [flag, { type: 'string', required: value }])) as Record<
    S,
    SideRow
  >;
  return {
    name: spec.name,
    help: spec.help,
    options: { ...sides, cards: CARDS_OPTION, ...spec.flags, ...VARIANT_OPTIONS },
    formats: ['text', 'json'],
  };
}

/**
 * The one palette of the views: every colour a chart draws with comes from VS Code's CSS variables
 * (its theme), read again when the theme changes. The engagement view's two lines are the theme's
 * blue and red; the battle view's lines take the chart colours in turn.
 */
import { cssVar } from './dom';

export interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  attacker: string;
  defender: string;
  bar: string;
  border: string;
  font: string;
  fontSize: number;
  highContrast: boolean;
  /** Distinct line colours, in turn: the theme's blue, red, green, orange, purple and yellow. */
  lines: string[];
}

const LINE_COLOURS = ['blue', 'red', 'green', 'orange', 'purple', 'yellow'];

/** The theme's colours now. */
export function readPalette(): Palette {
  const style = getComputedStyle(document.body);
  const foreground = cssVar(style, '--vscode-charts-foreground', cssVar(style, '--vscode-editor-foreground', style.color));
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    foreground,
    muted: cssVar(style, '--vscode-descriptionForeground', foreground),
    grid: cssVar(style, '--vscode-charts-lines', cssVar(style, '--vscode-panel-border', foreground)),
    attacker: cssVar(style, '--vscode-charts-blue', foreground),
    defender: cssVar(style, '--vscode-charts-red', foreground),
    bar: cssVar(style, '--vscode-charts-blue', foreground),
    border: cssVar(style, '--vscode-contrastBorder', 'transparent'),
    font: cssVar(style, '--vscode-font-family', style.fontFamily),
    fontSize: Number.parseFloat(cssVar(style, '--vscode-font-size', style.fontSize)) || 13,
    highContrast,
    lines: LINE_COLOURS.map((n) => cssVar(style, `--vscode-charts-${n}`, foreground)),
  };
}

/**
 * Calls `changed` when the theme changes: VS Code swaps the body's theme class, and the variables
 * on <html>, when it does.
 */
export function onThemeChange(changed: () => void): void {
  new MutationObserver(changed).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  new MutationObserver(changed).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
}

/**
 * Text from files in places VS Code renders "$(name)" as an icon (quick-pick labels, descriptions
 * and details, separators). Free of `vscode`, so that it is tested without an editor.
 */

/** Escapes "$(" the way VS Code does ("\$("), and puts the text on one line. */
export function iconSafe(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\$\(/g, '\\$(');
}

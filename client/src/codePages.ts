/**
 * A problem's code opens its page in the manual inside the editor: the server links each code to
 * its page on the web (`codeDescription.href`), and the client points that link at the copy of the
 * page shipped in the package (docs/codes/FS-CODE.md), through a URI this extension handles
 * (`<uri scheme>://fabled-star.fabled-star-tools/code/FS-CODE`), shown as a Markdown preview.
 * VS Code's Problems panel and hovers open such a URI in the window itself; a page the package does
 * not have opens on the web.
 */
import * as vscode from 'vscode';

const CODE = /^FS-[A-Z0-9-]+$/;
const PAGE_PATH = '/code/';

/** The URI that opens a code's page here. */
export function codePageUri(extensionId: string, code: string): vscode.Uri {
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: extensionId.toLowerCase(), path: `${PAGE_PATH}${code}` });
}

/** A diagnostic whose code links to the web page of one of our codes, linked to the page here instead. */
export function linkHere(extensionId: string, d: vscode.Diagnostic): vscode.Diagnostic {
  const code = d.code;
  if (typeof code !== 'object' || !CODE.test(String(code.value)) || !/\/docs\/codes\/FS-[A-Z0-9-]+\.md$/.test(code.target.path)) return d;
  d.code = { value: code.value, target: codePageUri(extensionId, String(code.value)) };
  return d;
}

/** Opens `/code/FS-CODE`: the shipped page as a Markdown preview, or its web page when the package lacks it. */
export class CodePages implements vscode.UriHandler {
  constructor(private readonly extension: vscode.ExtensionContext) {}

  async handleUri(uri: vscode.Uri): Promise<void> {
    if (!uri.path.startsWith(PAGE_PATH)) return;
    const code = uri.path.slice(PAGE_PATH.length);
    if (!CODE.test(code)) return;
    const page = vscode.Uri.joinPath(this.extension.extensionUri, 'docs', 'codes', `${code}.md`);
    try {
      await vscode.workspace.fs.stat(page);
    } catch {
      await vscode.env.openExternal(vscode.Uri.parse(`https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/${code}.md`));
      return;
    }
    await vscode.commands.executeCommand('markdown.showPreview', page);
  }
}

// The browser end-to-end test's folder (test/web-e2e/web.test.ts): a file system for the memfs:
// scheme, filled at activation from folder.json (path -> text), which the test serves beside this
// file. Writes, deletions and renames are kept in memory and reported to watchers.
const vscode = require('vscode');

class MemFS {
  constructor() {
    this.entries = new Map([['/', { type: vscode.FileType.Directory }]]);
    this.emitter = new vscode.EventEmitter();
    this.onDidChangeFile = this.emitter.event;
    this.ready = Promise.resolve();
  }
  key(uri) {
    return uri.path.replace(/\/+$/, '') || '/';
  }
  entry(uri) {
    const e = this.entries.get(this.key(uri));
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e;
  }
  fill(files) {
    for (const [path, text] of Object.entries(files)) {
      const parts = `/workspace/${path}`.split('/').filter(Boolean);
      for (let i = 1; i < parts.length; i++) this.entries.set(`/${parts.slice(0, i).join('/')}`, { type: vscode.FileType.Directory });
      this.entries.set(`/${parts.join('/')}`, { type: vscode.FileType.File, data: new TextEncoder().encode(text), mtime: Date.now() });
    }
  }
  watch() {
    return new vscode.Disposable(() => undefined);
  }
  async stat(uri) {
    await this.ready;
    const e = this.entry(uri);
    return { type: e.type, ctime: 0, mtime: e.mtime || 0, size: e.data ? e.data.byteLength : 0 };
  }
  async readDirectory(uri) {
    await this.ready;
    const dir = this.key(uri);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const out = [];
    for (const [k, e] of this.entries)
      if (k !== dir && k.startsWith(prefix) && !k.slice(prefix.length).includes('/')) out.push([k.slice(prefix.length), e.type]);
    return out;
  }
  async readFile(uri) {
    await this.ready;
    const e = this.entry(uri);
    if (!e.data) throw vscode.FileSystemError.FileIsADirectory(uri);
    return e.data;
  }
  writeFile(uri, content) {
    const had = this.entries.has(this.key(uri));
    this.entries.set(this.key(uri), { type: vscode.FileType.File, data: content, mtime: Date.now() });
    this.emitter.fire([{ type: had ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }
  createDirectory(uri) {
    this.entries.set(this.key(uri), { type: vscode.FileType.Directory });
    this.emitter.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }
  delete(uri) {
    const k = this.key(uri);
    for (const key of [...this.entries.keys()]) if (key === k || key.startsWith(`${k}/`)) this.entries.delete(key);
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }
  rename(from, to) {
    const e = this.entry(from);
    this.entries.delete(this.key(from));
    this.entries.set(this.key(to), e);
    this.emitter.fire([
      { type: vscode.FileChangeType.Deleted, uri: from },
      { type: vscode.FileChangeType.Created, uri: to },
    ]);
  }
}

exports.activate = function activate(context) {
  const fs = new MemFS();
  const folder = vscode.Uri.joinPath(context.extensionUri, 'folder.json').toString(true);
  fs.ready = fetch(folder)
    .then((r) => r.json())
    .then((files) => fs.fill(files));
  context.subscriptions.push(vscode.workspace.registerFileSystemProvider('memfs', fs, { isCaseSensitive: true }));
};

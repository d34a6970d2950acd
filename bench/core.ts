/**
 * The core benchmark: the CLI core (parse + every check) on (a) one 20,000-line unit file and
 * (b) a workspace of 2,000 cards and 500 fleets, next to the peer yaml-language-server validating
 * (a) against our JSON Schema, in the same run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Workspace } from '../server/src/core/workspace';
import { checkDocument } from '../server/src/core/check';
import { bigUnitFile, bigWorkspace } from './generate';
import { median, type Row } from './util';

async function peerValidate(text: string): Promise<{ run: () => Promise<number> } | undefined> {
  const schemaPath = path.join(process.cwd(), 'schemas', 'fabled-unit.schema.json');
  if (!fs.existsSync(schemaPath)) return undefined;
  // yaml-language-server's own language service, configured the way its VS Code client would be.
  const yls = await import('yaml-language-server');
  const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
  const uri = 'file:///bench/big.unit.yaml';
  const service = yls.getLanguageService({
    schemaRequestService: async () => JSON.stringify(schema),
    workspaceContext: { resolveRelativePath: (p: string) => p },
  } as never);
  service.configure({ validate: true, hover: false, completion: false, schemas: [{ uri: 'fabled-unit-schema', fileMatch: ['*.unit.yaml'], schema }] } as never);
  // A new version each run: yaml-language-server caches the parsed document by URI and version,
  // and our side parses from scratch every run too.
  let version = 0;
  return { run: async () => (await service.doValidation(TextDocument.create(uri, 'yaml', ++version, text), false)).length };
}

export async function benchCore(): Promise<Row[]> {
  const rows: Row[] = [];
  const big = bigUnitFile(20000);
  const lines = big.split('\n').length - 1;
  const uri = 'file:///bench/big.unit.yaml';
  let problems = 0;
  const timesA: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const ws = new Workspace();
    ws.set(uri, big);
    problems = checkDocument(ws.get(uri)!, ws).length;
    timesA.push(performance.now() - t0);
  }
  const ours = median(timesA);
  rows.push({
    name: `(a) check one ${lines}-line unit file (${problems} problems)`,
    medianMs: ours,
    goal: '< 200 ms and >= 3x faster than the peer',
    note: `first run ${timesA[0]!.toFixed(1)} ms`,
  });

  const peer = await peerValidate(big);
  if (peer) {
    const timesP: number[] = [];
    let n = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      n = await peer.run();
      timesP.push(performance.now() - t0);
    }
    const p = median(timesP);
    rows.push({
      name: `(a) peer: yaml-language-server validates it against schemas/fabled-unit.schema.json (${n} problems)`,
      medianMs: p,
      goal: 'reference',
      note: `ours is ${(p / ours).toFixed(1)}x faster`,
    });
  } else {
    rows.push({ name: '(a) peer: yaml-language-server', medianMs: NaN, goal: 'reference', note: 'schemas/fabled-unit.schema.json missing' });
  }

  const files = bigWorkspace(2000, 500);
  const timesB: number[] = [];
  let heap = 0;
  let count = 0;
  for (let i = 0; i < 5; i++) {
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const ws = new Workspace();
    for (const [u, t] of files) ws.set(u, t);
    count = 0;
    for (const d of ws.documents()) count += checkDocument(d, ws).length;
    timesB.push(performance.now() - t0);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
  }
  rows.push({
    name: `(b) check a workspace of 2,000 cards (${files.size - 500} files) and 500 fleets (${count} problems)`,
    medianMs: median(timesB),
    goal: '< 2000 ms',
    note: `heap grew ~${Math.round(heap / 1e6)} MB`,
  });
  return rows;
}

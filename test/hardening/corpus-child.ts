/**
 * Runs hostile cases for test/hardening/corpus.test.ts in a process of its own, with a small heap,
 * so that a hang can be stopped and a fatal error (which no try/catch survives) shows up as a dead
 * process instead of taking the test run with it. Protocol over IPC: the parent sends a case's
 * index; the child answers `generated` once the text exists, then `checked` with what was reported.
 */
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import { CASES } from './corpus';

export interface Checked {
  type: 'checked';
  index: number;
  codes: string[];
  problems: number;
  /** Problems whose range is not inside the text (described). */
  badSpans: string[];
  longestMessage: number;
  ms: number;
}

process.on('message', (index: number) => {
  const c = CASES[index]!;
  const text = c.bytes ? c.bytes().toString('utf8') : c.text();
  process.send!({ type: 'generated', index });
  const t0 = performance.now();
  const ws = new Workspace();
  const doc = ws.set(`file:///hostile/${c.file}`, text);
  const problems = doc ? checkDocument(doc, ws) : [];
  const ms = performance.now() - t0;
  const answer: Checked = {
    type: 'checked',
    index,
    codes: [...new Set(problems.map((p) => p.code))].sort(),
    problems: problems.length,
    badSpans: problems
      .filter((p) => !(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= text.length))
      .map((p) => `${p.code} ${p.span.start}-${p.span.end}`),
    longestMessage: problems.reduce((m, p) => Math.max(m, p.message.length), 0),
    ms,
  };
  process.send!(answer);
});

/**
 * The rules' copy-on-write list edit against immer (issue 17 names `produceWithPatches` for it): the same edit — k
 * items of a live list of n replaced by items of the same keys, or m items appended (what every turn records: its new
 * items) — made by the rules' `ListEdit` (the list copied on the first replacement, the changed positions kept) and
 * read back with `changesSince`, and by immer's `produceWithPatches` with the changed positions read from its patches.
 * The two alternate round by round in one process; per edit in microseconds, median / p95 / p99 over the rounds.
 * immer as shipped (auto-freeze on); `--no-freeze` turns auto-freeze off. The items are frozen, as the rules' are.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/list-edit.ts [--no-freeze] [--rounds=40]`
 */
import { performance } from 'node:perf_hooks';
import { castDraft, enablePatches, produceWithPatches, setAutoFreeze } from 'immer';
import type { ContextItem } from '@ctxgit/rules';
import { RulesCache } from '@ctxgit/rules';
// internals of the rules package: the primitive under test is not public
import { ListEdit } from '../../packages/rules/src/list-edit.js';
import { changesSince, recordEdit } from '../../packages/rules/src/list-lineage.js';
import { median, p95, p99 } from './stats.js';

enablePatches();
setAutoFreeze(!process.argv.includes('--no-freeze'));
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 40);

const item = (i: number, state: ContextItem['state']): ContextItem =>
  Object.freeze({
    key: `n${i}`,
    sourceNodeId: `n${i}`,
    role: i % 3 === 0 ? 'user' : 'tool',
    state,
    locked: false,
    blocks: Object.freeze([Object.freeze({ type: 'text' as const, text: `line ${i} `.repeat(25) })]),
    tokens: 50,
    reason: 'new',
    touchedAt: 1_700_000_000_000,
  });

/** One edit made both ways; each returns the positions it changed (below the old length) and where appends start. */
interface Case {
  readonly label: string;
  readonly ours: () => number;
  readonly immer: () => number;
}

function replaceCase(n: number, k: number): Case {
  const items = Array.from({ length: n }, (_, i) => item(i, 'full'));
  const at = Array.from({ length: k }, (_, j) => Math.floor(((j + 1) * n) / (k + 1)));
  const next = at.map((i) => item(i, 'aged'));
  const cache = new RulesCache();
  return {
    label: `replace ${k} of ${n}`,
    ours: () => {
      const edit = new ListEdit(items, cache);
      at.forEach((i, j) => edit.set(i, next[j] as ContextItem));
      return (changesSince(cache, edit.done(), items) as { changed: readonly number[] }).changed.length;
    },
    immer: () => {
      const [, patches] = produceWithPatches(items, (draft) => {
        at.forEach((i, j) => {
          draft[i] = castDraft(next[j] as ContextItem);
        });
      });
      return new Set(patches.map((p) => p.path[0])).size;
    },
  };
}

function appendCase(n: number, m: number): Case {
  const items = Array.from({ length: n }, (_, i) => item(i, 'full'));
  const added = Array.from({ length: m }, (_, j) => item(n + j, 'full'));
  const cache = new RulesCache();
  return {
    label: `append ${m} to ${n}`,
    ours: () => {
      const out = [...items, ...added];
      recordEdit(cache, out, items);
      return (changesSince(cache, out, items) as { appendedFrom: number }).appendedFrom;
    },
    immer: () => {
      const [, patches] = produceWithPatches(items, (draft) => {
        draft.push(...castDraft(added));
      });
      return Math.min(...patches.map((p) => Number(p.path[0])));
    },
  };
}

/** Microseconds per call of `fn`, over `reps` calls. */
function perCall(fn: () => number, reps: number): number {
  const t = performance.now();
  let sink = 0;
  for (let r = 0; r < reps; r++) sink += fn();
  if (sink < 0) throw new Error('unreachable');
  return ((performance.now() - t) / reps) * 1000;
}

const cases: Case[] = [];
for (const n of [25, 70, 300, 1_000]) {
  for (const k of [1, 3, 10]) cases.push(replaceCase(n, k));
  cases.push(appendCase(n, 3));
}
const rows: string[] = ['| edit | ours µs (median / p95 / p99) | immer µs (median / p95 / p99) | immer ÷ ours |', '| --- | --- | --- | --- |'];
for (const c of cases) {
  if (c.ours() !== c.immer()) throw new Error(`${c.label}: the two disagree on what changed`);
  for (let w = 0; w < 300; w++) {
    c.ours();
    c.immer();
  }
  const ours: number[] = [];
  const viaImmer: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(perCall(c.ours, 500));
    viaImmer.push(perCall(c.immer, 500));
  }
  const f = (xs: number[]): string => `${median(xs).toFixed(2)} / ${p95(xs).toFixed(2)} / ${p99(xs).toFixed(2)}`;
  rows.push(`| ${c.label} | ${f(ours)} | ${f(viaImmer)} | ${(median(viaImmer) / median(ours)).toFixed(1)} |`);
}
process.stdout.write(`immer auto-freeze ${process.argv.includes('--no-freeze') ? 'off' : 'on'}, ${rounds} rounds of 500 edits each way\n${rows.join('\n')}\n`);

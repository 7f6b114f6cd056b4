/**
 * Web viewer benchmark: the viewer of `@ctxgit/viewer` over sessions of 100 and 10,000 model calls (the chained
 * corpus, a commit before every call but for the older calls of a session past 1,000 (see `build`), a 32,000-token
 * window so that the rules fold), served on a loopback port and
 * opened in Debian's Chromium (playwright-core). Timed from the navigation to the moment the view is painted with its
 * data: the session page (timeline rows and occupancy ring), the DAG window, and a commit opened from the timeline
 * (its items). Sizes alternate run by run, each run in a fresh browser context; medians, p95 and the ratio of the
 * largest session to the 100-call one (≈ 1: the pages do not grow with the session). Also the browser's own
 * first-contentful-paint. Quick mode: 1,000 calls instead of 10,000, fewer runs.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/viewer.ts [--quick] [--repo-dir DIR]` (DIR, or the
 * environment's CTXGIT_VIEWER_REPO_DIR: build on disk there and reuse what a previous run completed)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openRepo } from '@ctxgit/commit';
import type { Repo, Session } from '@ctxgit/commit';
import type { BatchNodeInput, TranscriptEntry } from '@ctxgit/dag';
import { createViewer } from '@ctxgit/viewer';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../packages/viewer/test/browser.js';
import { ensureBundle } from '../../packages/viewer/test/fixture.js';
import { chainCorpus, prefix } from './commit.js';
import { median, p95 } from './stats.js';

/** Figures of one session size; times in milliseconds. */
export interface ViewerBenchRow {
  /** Model calls (= ContextCommits) of the session. */
  readonly calls: number;
  /** Nodes of the session. */
  readonly nodes: number;
  /** ContextCommits of the session (the timeline's rows): one per call up to 1,000 calls, else the last 200 calls' and one over the imported older ones. */
  readonly commits: number;
  /** Items of the latest commit (summarized ones included). */
  readonly items: number;
  readonly runs: number;
  /** Navigation to the session page until its timeline rows and occupancy ring are painted. */
  readonly sessionPageMedianMs: number;
  readonly sessionPageP95Ms: number;
  /** The browser's first-contentful-paint of that navigation. */
  readonly firstContentfulPaintMedianMs: number;
  /** Click on the DAG tab until the window of nodes is drawn. */
  readonly dagMedianMs: number;
  readonly dagP95Ms: number;
  /** Click on the newest commit of the timeline until its items are painted. */
  readonly openCommitMedianMs: number;
  readonly openCommitP95Ms: number;
  /** Building the session (untimed setup). */
  readonly setupMs: number;
}

/** Result of {@link runViewerBench}. */
export interface ViewerBenchResult {
  readonly quick: boolean;
  readonly rows: readonly ViewerBenchRow[];
  /** Medians at the largest session over the 100-call one: session page, first contentful paint, DAG, open a commit. */
  readonly ratioLargestOver100: { readonly sessionPage: number; readonly firstContentfulPaint: number; readonly dag: number; readonly openCommit: number };
  readonly notes: readonly string[];
}

const WINDOW = 32_000;
const WAIT = { timeout: 300_000 };

/** Up to this many calls, a session is committed before every call; a larger one imports its older calls. */
const COMMIT_EVERY_CALL_UP_TO = 1_000;
/** Calls committed one by one at the end of a larger session. */
const LAST_COMMITTED = 200;

/**
 * A session of `calls` model calls built through the public API: one `Session.appendTurn` per call (the nodes since
 * the previous call and the commit of the new head in one write, nothing rendered), so a commit before every call.
 * Past {@link COMMIT_EVERY_CALL_UP_TO} calls, all but the last {@link LAST_COMMITTED} are imported first as one
 * transcript (the DAG in one write) and committed once (that commit folds them), then the last ones go one
 * `appendTurn` each: the DAG and the latest commit have the whole session, the timeline its last 201 commits.
 */
async function build(repo: Repo, name: string, calls: number, log: (line: string) => void): Promise<{ session: Session; nodes: number }> {
  const chain = await chainCorpus(calls);
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  const options = { model: 'openai:gpt-4o', window: WINDOW, clock };
  const cuts = chain.calls.slice(0, calls);
  const ids = new Map<number, string>();
  const imported = calls <= COMMIT_EVERY_CALL_UP_TO ? 0 : calls - LAST_COMMITTED;
  let s: Session;
  let first = 0;
  if (imported > 0) {
    const start = prefix(chain, imported);
    s = await repo.importSession(name, start, options);
    await s.commit();
    ids.set(start.head as number, (await s.head()) as string);
    first = (start.head as number) + 1;
    log(`viewer bench: ${name} ${imported} calls imported and committed (${Math.round(process.cpuUsage().user / 1e6)} s CPU)`);
  } else s = await repo.createSession(name, options);
  for (let k = imported; k < cuts.length; k++) {
    const from = k === imported ? first : (cuts[k - 1] as number);
    const to = cuts[k] as number;
    // entries [from, to): the previous call's reply, its tool results, the next user message; committed before call k
    const inputs: BatchNodeInput[] = [];
    for (let i = from; i < to; i++) {
      const { predecessor: _after, caller: callerIndex, createdAt: _at, ...input } = chain.entries[i] as TranscriptEntry;
      const caller = callerIndex === undefined ? undefined : callerIndex >= from ? callerIndex - from : ids.get(callerIndex);
      if (callerIndex !== undefined && caller === undefined) throw new Error(`entry ${i}: caller ${callerIndex} not appended`);
      inputs.push(caller === undefined ? input : { ...input, caller });
    }
    if (inputs.length === 0) continue;
    const { nodes } = await s.appendTurn(inputs);
    nodes.forEach((n, j) => ids.set(from + j, n.id));
    if ((k + 1) % 500 === 0) log(`viewer bench: ${name} ${k + 1}/${calls} calls built (${Math.round(process.cpuUsage().user / 1e6)} s CPU)`);
  }
  return { session: s, nodes: cuts.at(-1) as number };
}

/** Options of {@link runViewerBench}. */
export interface ViewerBenchOptions {
  /** 1,000 calls instead of 10,000, 3 runs instead of 9. */
  readonly quick: boolean;
  /** Build the sessions in a repository on disk there, and read those a previous run completed from it (setup then not re-measured). @defaultValue memfs, built each run */
  readonly repoDir?: string;
  /** Progress lines. @defaultValue none */
  readonly log?: (line: string) => void;
}

interface Timings {
  sessionPage: number[];
  fcp: number[];
  dag: number[];
  openCommit: number[];
}

/** Resolves after the next frame: what was rendered is painted. */
const painted = (page: Page): Promise<unknown> => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');

async function once(browser: Browser, url: string, name: string, into: Timings): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const a = performance.now();
  await page.goto(`${url}/#/s/${encodeURIComponent(name)}/timeline`);
  await page.getByTestId('commit-link').first().waitFor(WAIT);
  await page.getByTestId('occ-used').waitFor(WAIT);
  await painted(page);
  into.sessionPage.push(performance.now() - a);
  into.fcp.push(Number(await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0")));
  const b = performance.now();
  await page.getByTestId('tab-dag').click();
  await page.getByTestId('dag-node').first().waitFor(WAIT);
  await painted(page);
  into.dag.push(performance.now() - b);
  await page.getByTestId('tab-timeline').click();
  await page.getByTestId('commit-link').first().waitFor(WAIT);
  const c = performance.now();
  await page.getByTestId('commit-link').first().click();
  await page.getByTestId('item').first().waitFor(WAIT);
  await painted(page);
  into.openCommit.push(performance.now() - c);
  await context.close();
}

/**
 * Runs the benchmark.
 * @example
 * ```ts
 * const r = await runViewerBench({ quick: true });
 * r.ratioLargestOver100.openCommit;
 * ```
 */
export async function runViewerBench(opts: ViewerBenchOptions): Promise<ViewerBenchResult> {
  const sizes = [100, opts.quick ? 1_000 : 10_000];
  const runs = opts.quick ? 3 : 9;
  const log = opts.log ?? (() => undefined);
  await ensureBundle();
  // the bench runner passes { quick } only: CTXGIT_VIEWER_REPO_DIR gives it a repository to build in or reuse
  const repoDir = opts.repoDir ?? process.env['CTXGIT_VIEWER_REPO_DIR'];
  const repo = await openRepo(repoDir === undefined ? { memory: true, fsync: false } : { dir: repoDir, fsync: false });
  const built: { name: string; calls: number; nodes: number; commits: number; items: number; setupMs: number }[] = [];
  const reused: string[] = [];
  for (const calls of sizes) {
    const a = performance.now();
    const name = `calls-${calls}`;
    // a session a previous run completed in repoDir (its mark file written after it) is read as it is
    const done = repoDir === undefined ? undefined : `${repoDir}.${name}.done`;
    const reuse = done !== undefined && existsSync(done);
    const { session, nodes } = reuse ? { session: await repo.openSession(name), nodes: (await repo.store.getSession(name))?.nextSeq ?? 0 } : await build(repo, name, calls, log);
    if (done !== undefined && !reuse) writeFileSync(done, `${calls}\n`);
    if (reuse) reused.push(name);
    const [latest] = await session.log({ limit: 1 });
    const items = (await repo.readCommit(latest?.id ?? '')).items.length;
    const setupMs = performance.now() - a;
    const commits = (await session.log()).length;
    built.push({ name, calls, nodes, commits, items, setupMs });
  }
  const viewer = createViewer({ repo });
  const server = createServer(viewer.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const timings = built.map((): Timings => ({ sessionPage: [], fcp: [], dag: [], openCommit: [] }));
  try {
    for (const [i, b] of built.entries()) await once(browser, url, b.name, timings[i] as Timings); // warm-up
    for (const t of timings) for (const k of Object.keys(t) as (keyof Timings)[]) t[k].length = 0;
    for (let r = 0; r < runs; r++) {
      const order = r % 2 === 0 ? built.map((_, i) => i) : built.map((_, i) => built.length - 1 - i);
      for (const i of order) await once(browser, url, (built[i] as { name: string }).name, timings[i] as Timings);
    }
  } finally {
    await browser.close();
    viewer.close();
    server.closeAllConnections();
    server.close();
  }
  const round = (x: number): number => Math.round(x * 10) / 10;
  const rows = built.map((b, i): ViewerBenchRow => {
    const t = timings[i] as Timings;
    return {
      calls: b.calls,
      nodes: b.nodes,
      commits: b.commits,
      items: b.items,
      runs,
      sessionPageMedianMs: round(median(t.sessionPage)),
      sessionPageP95Ms: round(p95(t.sessionPage)),
      firstContentfulPaintMedianMs: round(median(t.fcp)),
      dagMedianMs: round(median(t.dag)),
      dagP95Ms: round(p95(t.dag)),
      openCommitMedianMs: round(median(t.openCommit)),
      openCommitP95Ms: round(p95(t.openCommit)),
      setupMs: Math.round(b.setupMs),
    };
  });
  const small = rows[0] as ViewerBenchRow;
  const large = rows.at(-1) as ViewerBenchRow;
  const ratio = (f: (r: ViewerBenchRow) => number): number => (f(small) === 0 ? 0 : Number((f(large) / f(small)).toFixed(2)));
  return {
    quick: opts.quick,
    rows,
    ratioLargestOver100: {
      sessionPage: ratio((r) => r.sessionPageMedianMs),
      firstContentfulPaint: ratio((r) => r.firstContentfulPaintMedianMs),
      dag: ratio((r) => r.dagMedianMs),
      openCommit: ratio((r) => r.openCommitMedianMs),
    },
    notes: [
      `sessions of ${sizes.join(' and ')} model calls from the chained corpus (up to ${COMMIT_EVERY_CALL_UP_TO.toLocaleString('en-US')} calls a commit before every call; a larger session imports all but its last ${LAST_COMMITTED} calls as one transcript and commits them once, then commits before each of the last ${LAST_COMMITTED}; openai:gpt-4o with a ${WINDOW.toLocaleString('en-US')}-token window, default rules: folds; one Session.appendTurn per call), ${repoDir === undefined ? 'on memfs' : 'in a repository on disk'}, served by createViewer on 127.0.0.1`,
      'Chromium (Debian, headless) via playwright-core; each run in a fresh browser context (the bundle comes from the HTTP cache of none); sizes alternate run by run after one warm-up run each',
      ...(reused.length === 0 ? [] : [`${reused.join(', ')} read from the repository a previous run built (setup ms not re-measured)`]),
      'session page: timeline (one page of 100 commits) and occupancy ring painted; DAG: a window of 40 nodes around the head drawn by dagre; open a commit: the newest commit’s live items painted (its summarized items stay behind their summaries)',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv.indexOf('--repo-dir');
  const repoDir = dir >= 0 ? process.argv[dir + 1] : undefined;
  const r = await runViewerBench({ quick: process.argv.includes('--quick'), ...(repoDir === undefined ? {} : { repoDir }), log: (line) => process.stderr.write(`${line}\n`) });
  const head = ['calls', 'nodes', 'commits', 'items', 'runs', 'session page ms (median)', 'p95', 'FCP ms', 'DAG ms', 'p95', 'open commit ms', 'p95', 'setup ms'];
  const lines = r.rows.map((x) =>
    [x.calls, x.nodes, x.commits, x.items, x.runs, x.sessionPageMedianMs, x.sessionPageP95Ms, x.firstContentfulPaintMedianMs, x.dagMedianMs, x.dagP95Ms, x.openCommitMedianMs, x.openCommitP95Ms, x.setupMs].join(' | '),
  );
  process.stdout.write(`${head.join(' | ')}\n${lines.join('\n')}\nratios, largest / 100: ${JSON.stringify(r.ratioLargestOver100)}\n`);
  for (const note of r.notes) process.stdout.write(`note: ${note}\n`);
}

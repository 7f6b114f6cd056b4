// The demo: replays a long real transcript into an on-disk ctxgit repository with a commit before every model call,
// then shows per call what the full history would cost against what ctxgit feeds, the item states, and how much of
// the previous request stays a cacheable prefix; then the plain git commands that show the same timeline.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { main } from '@ctxgit/cli';

/** Options of {@link runDemo}; paths absolute or relative to `root`. */
export interface DemoOptions {
  /** The project root (`.demo/` and `../shared/corpus` are found from it). */
  readonly root: string;
  /** Transcript to replay. @defaultValue the largest `.traj` of `<root>/../shared/corpus/swe-agent` */
  readonly file?: string;
  /** `swe-agent`, `claude-code` or `openai-chat`. @defaultValue from the file: `.traj` → swe-agent, a `.jsonl` of Claude Code lines → claude-code, else openai-chat */
  readonly format?: string;
  /** Context window of the session, tokens: small, so that aging, clearing and folding all happen. @defaultValue 6000 */
  readonly budget?: number;
  /** Seconds the synthetic clock advances per entry without a timestamp (idle clearing needs 60 minutes). @defaultValue 900 */
  readonly clockStep?: number;
  /** Repository directory, recreated on each run. @defaultValue `<root>/.demo/repo.git` */
  readonly repo?: string;
}

/** Figures of one replay. */
export interface DemoResult {
  readonly repo: string;
  /** The git commands printed (paths relative to the working directory when inside it). */
  readonly commands: readonly string[];
  readonly session: string;
  readonly calls: number;
  readonly fullTokens: number;
  readonly fedTokens: number;
  /** Items aged, cleared, folded and cut by the cap over the whole run. */
  readonly aged: number;
  readonly cleared: number;
  readonly folded: number;
  readonly capped: number;
  readonly meanPrefixShare: number | null;
}

interface Stats {
  commits: {
    id: string;
    totalTokens: number;
    fullTokens: number;
    occupancy: number;
    states: { full: number; aged: number; cleared: number; summarized: number; summary: number };
    summary: { added: number; aged: number; cleared: number; folded: number };
    capped: number;
    cappedItems: number;
    prefixShare: number | null;
  }[];
  totals: { fullTokens: number; totalTokens: number; meanPrefixShare: number | null };
}

/** Runs the CLI in-process and returns its stdout; throws with its stderr on failure. */
async function ctxgit(args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, cwd: process.cwd(), env: {} });
  if (code !== 0) throw new Error(err.trim());
  return out;
}

function largestTrajectory(root: string): string {
  const dir = resolve(root, '..', 'shared', 'corpus', 'swe-agent');
  const files = readdirSync(dir).filter((f) => f.endsWith('.traj'));
  if (files.length === 0) throw new Error(`no .traj file in ${dir}`);
  return join(dir, files.map((f) => ({ f, size: statSync(join(dir, f)).size })).sort((a, b) => b.size - a.size || a.f.localeCompare(b.f))[0]?.f ?? '');
}

function formatOf(file: string): string {
  if (extname(file) === '.traj') return 'swe-agent';
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  return /"uuid"\s*:/.test(first) && /"type"\s*:/.test(first) ? 'claude-code' : 'openai-chat';
}

/** `path` relative to the working directory when it lies inside it, else absolute. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

const pct = (x: number | null): string => (x === null ? '    -' : `${(100 * x).toFixed(1).padStart(5)}%`);

/** Replays the transcript and prints the timeline through `print` (one line per call). */
export async function runDemo(opts: DemoOptions, print: (line: string) => void): Promise<DemoResult> {
  const file = resolve(opts.root, opts.file ?? largestTrajectory(opts.root));
  const repo = resolve(opts.root, opts.repo ?? join('.demo', 'repo.git'));
  const budget = opts.budget ?? 6000;
  const step = opts.clockStep ?? 900;
  rmSync(repo, { recursive: true, force: true });
  const started = performance.now();
  const imported = JSON.parse(
    await ctxgit(['import', file, '--format', opts.format ?? formatOf(file), '--session', 'demo', '--budget', String(budget), '--clock-step', String(step), '--repo', repo, '--no-fsync', '--json']),
  ) as { sessions: { id: string; nodes: number; commits: number }[] };
  const first = imported.sessions[0];
  if (first === undefined) throw new Error(`${file} holds no conversation`);
  const stats = JSON.parse(await ctxgit(['stats', '--session', first.id, '--repo', repo, '--json'])) as Stats;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  print(`ctxgit demo: ${basename(file)}`);
  print(`${first.nodes} nodes replayed into ${shortPath(repo)} (session ${first.id}), one commit before each of ${first.commits} model calls;`);
  print(`context window ${budget} tokens; clock: the transcript's timestamps, else ${step / 60} min per entry (idle clearing after 60 min). ${seconds}s.`);
  print('');
  print('call  full history  ctxgit feeds  window  prefix kept  rules this turn              items: full capped aged cleared summarized summary');
  let aged = 0;
  let cleared = 0;
  let folded = 0;
  let capped = 0;
  for (const [i, c] of stats.commits.entries()) {
    aged += c.summary.aged;
    cleared += c.summary.cleared;
    folded += c.summary.folded;
    capped += c.capped;
    // every rule that acted on this turn, by name (the cap too: it feeds less than the full history with nothing aged)
    const acted = [
      ...(c.capped > 0 ? [`${c.capped} capped`] : []),
      ...(c.summary.aged > 0 ? [`${c.summary.aged} aged`] : []),
      ...(c.summary.cleared > 0 ? [`${c.summary.cleared} cleared`] : []),
      ...(c.summary.folded > 0 ? [`${c.summary.folded} folded`] : []),
    ];
    const rules = `+${c.summary.added} new${acted.length === 0 ? '' : `, ${acted.join(', ')}`}`;
    const st = c.states;
    print(
      `${String(i + 1).padStart(4)}  ${String(c.fullTokens).padStart(12)}  ${String(c.totalTokens).padStart(12)}  ${pct(c.occupancy)}  ${pct(c.prefixShare).padStart(11)}  ${rules.padEnd(27)}  ` +
        `${String(st.full).padStart(11)} ${String(c.cappedItems).padStart(6)} ${String(st.aged).padStart(4)} ${String(st.cleared).padStart(7)} ${String(st.summarized).padStart(10)} ${String(st.summary).padStart(7)}`,
    );
  }
  const t = stats.totals;
  print('');
  print(`total: full history would cost ${t.fullTokens} tokens over ${stats.commits.length} calls; ctxgit fed ${t.totalTokens} (${Math.round((100 * (t.fullTokens - t.totalTokens)) / Math.max(1, t.fullTokens))}% less).`);
  print(`rules: ${capped} items capped (head and tail kept), ${aged} aged, ${cleared} cleared after idling, ${folded} folded into summaries; mean cacheable prefix ${pct(t.meanPrefixShare).trim()} of the previous request.`);
  const foldAt = stats.commits.findIndex((c) => c.summary.folded > 0);
  const shown = stats.commits[foldAt >= 0 ? foldAt : stats.commits.length - 1];
  const before = stats.commits[(foldAt >= 0 ? foldAt : stats.commits.length - 1) - 1];
  const ref = `refs/ctxgit/sessions/${first.id}/context`;
  const gitDir = shortPath(repo);
  const commands = [
    `git --git-dir ${gitDir} log --oneline ${ref}`,
    `git --git-dir ${gitDir} show --stat ${shown?.id.slice(0, 12) ?? ''}`,
    ...(before === undefined ? [] : [`git --git-dir ${gitDir} diff --stat ${before.id.slice(0, 12)} ${shown?.id.slice(0, 12) ?? ''}`]),
    `git --git-dir ${gitDir} log --graph --oneline --all`,
  ];
  print('');
  print('The same timeline with plain git (each commit is what the model was fed for one call):');
  for (const c of commands) print(`  ${c}`);
  const git = spawnSync('git', ['--git-dir', repo, 'log', '--oneline', '-n', '3', ref], { encoding: 'utf8' });
  if (git.status === 0) {
    print('');
    print(`$ git --git-dir ${gitDir} log --oneline -n 3 ${ref}`);
    for (const line of git.stdout.trimEnd().split('\n')) print(line);
  }
  return { repo, commands, session: first.id, calls: stats.commits.length, fullTokens: t.fullTokens, fedTokens: t.totalTokens, aged, cleared, folded, capped, meanPrefixShare: t.meanPrefixShare };
}

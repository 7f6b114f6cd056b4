import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { branchView, importClaudeCode, importOpenAIChat, importSweAgentTraj } from '@ctxgit/dag';
import type { Transcript } from '@ctxgit/dag';
import { expect } from 'vitest';
import type { ContextCommit, Repo } from '../src/index.js';
import { stepClock } from './helpers.js';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** Every transcript of the shared corpus, with a session name and a model. */
export function corpusTranscripts(): { name: string; model: string; transcript: Transcript }[] {
  const out: { name: string; model: string; transcript: Transcript }[] = [];
  const files = (dir: string, ext: string): string[] => readdirSync(`${CORPUS}${dir}`).filter((f) => f.endsWith(ext)).sort();
  files('swe-agent', '.traj').forEach((f, i) => {
    out.push({ name: `swe-${i}`, model: 'openai:gpt-4o', transcript: importSweAgentTraj(readFileSync(`${CORPUS}swe-agent/${f}`, 'utf8')) });
  });
  files('claude-code', '.jsonl').forEach((f) => {
    const transcript = importClaudeCode(readFileSync(`${CORPUS}claude-code/${f}`, 'utf8'), { malformed: 'skip' });
    out.push({ name: `cc-${f.replace(/\.jsonl$/, '')}`, model: 'anthropic:claude-sonnet-4-5', transcript });
  });
  importOpenAIChat(readFileSync(`${CORPUS}tau-bench-airline/gpt-4o-airline.jsonl`, 'utf8')).forEach((transcript, i) => {
    out.push({ name: `tau-${i}`, model: 'openai:gpt-4o', transcript });
  });
  return out;
}

/**
 * Replays a transcript node by node through the Session API with a commit before each assistant node
 * (checking out the entry's predecessor when the transcript branches), then a final commit; checks that each
 * commit holds exactly the branch view of its head.
 */
export async function replay(repo: Repo, name: string, model: string, t: Transcript): Promise<ContextCommit[]> {
  const clock = stepClock();
  const s = await repo.createSession(name, { model, clock });
  const ids: string[] = [];
  const commits: ContextCommit[] = [];
  const check = async (c: ContextCommit): Promise<void> => {
    const view = await branchView(repo.store.forSession(name), c.headNodeId);
    // The live items, and the originals under each summary (they left the live list when folded).
    const covered = new Set<string>();
    for (const it of c.items) {
      if (it.state !== 'summary') covered.add(it.sourceNodeId);
      else for (const o of (await s.expand(it.key, { commit: c.id })).originals) covered.add(o.node.id);
    }
    expect(covered).toEqual(new Set(view.map((n) => n.id)));
  };
  let head: string | null = null;
  for (const e of t.entries) {
    if (e.role === 'assistant' && head !== null) commits.push(await s.commit());
    const predecessor = e.predecessor === undefined ? undefined : ids[e.predecessor];
    if (e.role !== 'tool' && predecessor !== undefined && predecessor !== head) await s.checkout(predecessor);
    const node = await s.append({
      role: e.role,
      output: e.output,
      ...(e.name === undefined ? {} : { name: e.name }),
      ...(e.input === undefined ? {} : { input: e.input }),
      ...(e.caller === undefined ? {} : { caller: ids[e.caller] as string }),
      ...(e.metadata === undefined ? {} : { metadata: e.metadata }),
    });
    ids.push(node.id);
    if (e.role !== 'tool') head = node.id;
  }
  if (t.head !== null) await s.checkout(ids[t.head] as string);
  if ((await s.head()) !== null) commits.push(await s.commit());
  expect(await s.head()).toBe(t.head === null ? head : ids[t.head]);
  const last = commits[commits.length - 1];
  if (last !== undefined) await check(last);
  const sample = commits[Math.floor(commits.length / 2)];
  if (sample !== undefined) await check(sample);
  return commits;
}

/**
 * Replays the corpus transcripts into `repo`: every one, or with `every: k` the first of each corpus (swe-agent,
 * Claude Code, tau-bench) and each k-th after it. Returns how many transcripts, distinct commits made and assistant
 * nodes seen.
 */
export async function replayCorpus(repo: Repo, every = 1): Promise<{ transcripts: number; commits: number; assistants: number }> {
  const kept = new Map<string, number>();
  const all = corpusTranscripts().filter(({ name }) => {
    const corpus = name.slice(0, name.indexOf('-'));
    const seen = kept.get(corpus) ?? 0;
    kept.set(corpus, seen + 1);
    return seen % every === 0;
  });
  let commits = 0;
  let assistants = 0;
  for (const { name, model, transcript } of all) {
    const made = await replay(repo, name, model, transcript);
    commits += new Set(made.map((c) => c.id)).size;
    assistants += transcript.entries.filter((e) => e.role === 'assistant').length;
  }
  return { transcripts: all.length, commits, assistants };
}

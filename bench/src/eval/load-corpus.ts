import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { branchView, importClaudeCode, importOpenAIChat, importSweAgentTraj, MemoryNodeStore, writeTranscript } from '@ctxgit/dag';
import type { Transcript as DagTranscript } from '@ctxgit/dag';
import { sampleEvenly } from './sample-evenly.js';
import type { Transcript } from './transcript.js';

/** One corpus folder, imported. */
export interface LoadedCorpus {
  readonly name: string;
  /** Conversations in the folder. */
  readonly conversations: number;
  /** The replayed ones (all, or an even sample). */
  readonly transcripts: readonly Transcript[];
  /** Items the importers skipped on purpose (summed over the replayed conversations), by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

const FORMATS: readonly { readonly name: string; readonly ext: string; readonly parse: (text: string) => DagTranscript[] }[] = [
  { name: 'tau-bench-airline', ext: '.jsonl', parse: (text) => importOpenAIChat(text) },
  { name: 'swe-agent', ext: '.traj', parse: (text) => [importSweAgentTraj(text)] },
  { name: 'claude-code', ext: '.jsonl', parse: (text) => [importClaudeCode(text, { malformed: 'skip' })] },
];

async function linearize(id: string, t: DagTranscript): Promise<Transcript> {
  const store = new MemoryNodeStore();
  const { session } = await writeTranscript(store, 'replay', t, { clock: () => 0 });
  const nodes = session.head === null ? [] : await branchView(store, session.head);
  return { id, corpus: id.split('/')[0] ?? id, nodes, timestamps: t.entries.some((e) => e.createdAt !== undefined) };
}

/**
 * Imports every transcript of the corpus with `@ctxgit/dag`'s importers and linearizes each as its branch
 * view (the main conversation, HEAD at the importer's head), keeping `sample` conversations per folder,
 * spread evenly. Files are read in sorted order.
 * @example
 * ```ts
 * const corpora = await loadCorpus('/work/shared/corpus', Infinity);
 * corpora.map((c) => c.transcripts.length); // [150, 16, 4]
 * ```
 */
export async function loadCorpus(dir: string, sample: number): Promise<LoadedCorpus[]> {
  const out: LoadedCorpus[] = [];
  for (const format of FORMATS) {
    const folder = join(dir, format.name);
    const files = (await readdir(folder)).filter((f) => f.endsWith(format.ext)).sort();
    const all: { id: string; t: DagTranscript }[] = [];
    for (const file of files) {
      const ts = format.parse(await readFile(join(folder, file), 'utf8'));
      ts.forEach((t, i) => all.push({ id: `${format.name}/${file}${ts.length > 1 ? `#${i + 1}` : ''}`, t }));
    }
    const chosen = sampleEvenly(all, sample);
    const transcripts: Transcript[] = [];
    const skipped: Record<string, number> = {};
    for (const { id, t } of chosen) {
      transcripts.push(await linearize(id, t));
      for (const [reason, n] of Object.entries(t.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
    }
    out.push({ name: format.name, conversations: all.length, transcripts, skipped });
  }
  return out;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { BatchNodeInput, Transcript, TranscriptEntry } from '@ctxgit/dag';
import { entryInput } from '@ctxgit/dag';
import type { Repo, Session, SessionPack } from '@ctxgit/commit';
import { adoptSessionPack, clearImportMarker, holdsSessionPack, incompleteImports, markImport, openRepo, packSessions, SessionNameTakenError } from '@ctxgit/commit';
import { inBatch, validateRefComponent } from '@ctxgit/commit/git';
import { resolveModel } from '@ctxgit/tokenize';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openOrCreate } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { positiveInt, repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';
import { createProgress } from '../progress.js';
import type { Progress } from '../progress.js';
import type { NamedTranscript } from '../read-transcripts.js';
import { IMPORT_FORMATS, readText, readTranscripts } from '../read-transcripts.js';
import { scratchFs } from '../scratch-fs.js';
import { syntheticTimes, SYNTHETIC_EPOCH_MS } from '../synthetic-clock.js';

/** Model of imported sessions when `--model` is absent. */
export const DEFAULT_IMPORT_MODEL = 'openai:gpt-4o';

/** What shapes a replay: the clock step, the model and the window. */
export type ImportReplayOptions = Pick<ImportOptions, 'model' | 'budget' | 'clockStep'>;

interface ImportOptions extends CommonOptions {
  readonly format?: string;
  readonly session?: string;
  readonly model: string;
  readonly budget?: number;
  readonly clockStep: number;
  readonly fsync: boolean;
  readonly skipMalformed?: boolean;
}

/** What `import --json` prints for one session. */
export interface ImportedSession {
  readonly id: string;
  readonly nodes: number;
  readonly commits: number;
}

/** The `import` command: replays transcripts into sessions, with a commit before each model call. */
export function importCommand(io: CliIo): Command {
  return withCommon(
    new Command('import')
      .description(
        'Replay a transcript into new sessions: each node is appended in order, with a commit before every model call ' +
          '(an assistant turn after a user or tool turn: the context the model was fed for that call). A file with several conversations (JSONL, one per line) ' +
          'makes one session per conversation, named <session>-<index> (0-based).',
      )
      .argument('<file>', 'transcript file')
      .addOption(new Option('--format <format>', 'transcript format (default: the one the file looks like)').choices(IMPORT_FORMATS))
      .addOption(new Option('--session <name>', 'session name (default: the file name without extension)'))
      .addOption(new Option('--model <provider:model>', 'model of the sessions').default(DEFAULT_IMPORT_MODEL))
      .addOption(new Option('--budget <tokens>', "context window of the sessions, tokens: the rendered request (items with their wrappers, the reply reserve) never passes it (default: the model's window)").argParser(positiveInt('--budget')))
      .addOption(
        new Option('--clock-step <seconds>', 'synthetic clock: seconds between entries that carry no timestamp').default(60).argParser(positiveInt('--clock-step')),
      )
      .addOption(new Option('--skip-malformed', 'skip malformed lines or messages (counted in the output) instead of failing'))
      .addOption(new Option('--no-fsync', 'do not fsync each write: much faster, but a crash mid-import may lose the last writes')),
  )
    .addHelpText(
      'after',
      `\nClock: timestamps in the transcript drive the clock (node times, commit times, idle clearing). An entry without one
is placed --clock-step seconds after the entry before it; the first entry of a transcript without any timestamp is at
${new Date(SYNTHETIC_EPOCH_MS).toISOString()}.

Nothing is written on failure: the import is first replayed into a scratch repository in a temporary directory,
then written to the repository as one pack, followed by the sessions' refs. An import that was killed is resumed by running the same
command again (the refs it created are recognized); until it completes, \`ctxgit verify\` lists its sessions as incomplete imports, with that command.

JSON (--json): { "sessions": [{ "id", "nodes", "commits" }] }`,
    )
    .action(async (file: string, opts: ImportOptions) => {
      const sessions = await runImport(io, file, opts);
      emit(io, opts, {
        json: { sessions },
        text: table([
          ['session', 'nodes', 'commits'],
          ...sessions.map((s) => [s.id, String(s.nodes), String(s.commits)]),
        ]),
      });
    });
}

async function runImport(io: CliIo, file: string, opts: ImportOptions): Promise<ImportedSession[]> {
  const dir = repoPath(io, opts);
  const named = readTranscripts(await readText(file), file, opts.format, opts.session, opts.skipMalformed === true);
  resolveModel(opts.model, opts.budget === undefined ? {} : { window: opts.budget });
  for (const n of named) validateRefComponent(n.session, 'session');
  const entries = named.reduce((n, t) => n + t.transcript.entries.length, 0);
  const progress = createProgress(io.stderr, entries);
  try {
    // The import is replayed into a scratch repository first (a temporary directory, no fsync): any error of the DAG
    // or the rules (an oversized node, a budget too small to fold into) surfaces before the repository is touched, and
    // memory holds at most a pack's worth of objects (SCRATCH_HOLD_BYTES), not the import. What it wrote then lands
    // in the repository as one pack, objects first, then the sessions' refs (created by compare-and-swap): the ids
    // are those a replay in place makes (ids and clocks are deterministic). A killed import is resumed by running it
    // again: the replay gives the same pack and refs, and the refs already created are left as they are.
    const scratchDir = await mkdtemp(join(tmpdir(), 'ctxgit-import-'));
    try {
      const { scratch, sessions: out } = await replayIntoScratch(scratchDir, named, opts, progress);
      // the replay's packs (deltas searched within each) copied into one, no delta search over the whole import (at
      // 1,000 turns 74 ms, a pack 0.99 of `git repack -adf`'s; bench/src/import.ts)
      await adoptImport(io, dir, file, named, opts, await packSessions(scratch, { compact: false }));
      return out;
    } finally {
      await rm(scratchDir, { recursive: true, force: true });
    }
  } finally {
    progress.done();
  }
}

/** Writes the packed import into the repository at `dir`: refuses sessions it holds already, marks, adopts, unmarks. */
async function adoptImport(io: CliIo, dir: string, file: string, named: readonly NamedTranscript[], opts: ImportOptions, packed: SessionPack): Promise<void> {
  const repo = await openOrCreate(dir, { fsync: opts.fsync });
  const taken = new Set(await repo.listSessions());
  const marked = new Set((await incompleteImports(repo)).map((m) => m.session));
  for (const n of named) {
    if (!taken.has(n.session)) continue;
    // a session a killed run of this import wrote (its marker is still set) resumes: its refs are created, or left
    // where they are; without the marker, the import of that session finished
    const same = await holdsSessionPack(repo, packed, n.session);
    if (same && marked.has(n.session)) continue;
    throw sessionExists(dir, n.session, same ? 'holds this transcript already' : 'is not an import of this transcript');
  }
  // each session is marked until the whole import is written (verify reports a marked session as an incomplete
  // import, with this command line to resume it); a re-run of the same command finds the marker and resumes
  const again = resumeCommand(file, dir, opts);
  for (const { session } of named) await markImport(repo, session, again);
  try {
    await adoptSessionPack(repo, packed);
  } catch (err) {
    if (!(err instanceof SessionNameTakenError)) throw err;
    throw sessionExists(dir, String(err.data['session']), 'is not an import of this transcript');
  }
  for (const { session } of named) await clearImportMarker(repo, session);
  for (const { session, transcript } of named) {
    if (transcript.malformed.length > 0) io.stderr.write(`ctxgit: ${session}: skipped ${transcript.malformed.length} malformed (first: ${transcript.malformed[0]?.reason ?? ''})\n`);
  }
}

/** The refusal of a session name the repository already holds. */
function sessionExists(dir: string, session: string, why: string): CliError {
  return new CliError('E_CLI_SESSION_EXISTS', `session ${JSON.stringify(session)} already exists in ${dir} and ${why}; import with another --session`, { session });
}

/** A shell word: as is when it is plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The command line that runs this import again (and so resumes it): absolute paths, every option that shapes it. */
function resumeCommand(file: string, dir: string, opts: ImportOptions): string {
  const words = ['ctxgit', 'import', resolve(file), ...(opts.format === undefined ? [] : ['--format', opts.format]), ...(opts.session === undefined ? [] : ['--session', opts.session]), '--model', opts.model];
  if (opts.budget !== undefined) words.push('--budget', String(opts.budget));
  words.push('--clock-step', String(opts.clockStep));
  if (opts.skipMalformed === true) words.push('--skip-malformed');
  if (!opts.fsync) words.push('--no-fsync');
  words.push('--repo', resolve(dir));
  return words.map(shellWord).join(' ');
}

/**
 * Objects a scratch replay holds in memory before it writes them as one pack (deltas searched among them): a few
 * packs an import instead of one a turn rolled up again and again. Chained corpus, 1,000 turns: replay 17.5 -> 13.1 s,
 * its packs 5.5 -> 3.8 MB (`git repack -a -d -f`: 3.9 MB); 2 MB: 13.3 s, 4.2 MB; 64 MB: 13.0 s, 3.7 MB.
 */
const SCRATCH_HOLD_BYTES = 16 * 1024 * 1024;

/**
 * Opens a scratch repository in `dir` (its packs on disk, its refs in memory: {@link scratchFs}; no fsync, no
 * roll-ups) and replays every transcript into it, its objects held in memory and written as a pack each
 * {@link SCRATCH_HOLD_BYTES} (a ref of the scratch may name an object not yet
 * written until the replay ends: nothing else reads it, and it is thrown away on failure).
 */
export async function replayIntoScratch(dir: string, named: readonly NamedTranscript[], opts: ImportReplayOptions, progress: Progress): Promise<{ scratch: Repo; sessions: ImportedSession[] }> {
  const scratch = await openRepo({ dir, fs: await scratchFs(dir), fsync: false, maintenance: false });
  const sessions = await inBatch(scratch.git, () => replayAll(scratch, named, opts, progress, ''), { holdBytes: SCRATCH_HOLD_BYTES });
  return { scratch, sessions };
}

/**
 * Creates every session in `repo` and replays it (what `import` does in memory before it writes one pack; exported for
 * the test that a replay straight into a repository on disk gives the same ids).
 */
export async function replayAll(repo: Repo, named: readonly NamedTranscript[], opts: ImportReplayOptions, progress: Progress, label: string): Promise<ImportedSession[]> {
  const out: ImportedSession[] = [];
  for (const { session, transcript } of named) {
    const times = syntheticTimes(transcript.entries, opts.clockStep * 1000);
    const clock = new ReplayClock(times[0] ?? SYNTHETIC_EPOCH_MS);
    // With --budget the window is the rendered request: items counted with the wrappers of the model's provider.
    const request = opts.budget === undefined ? {} : { request: { format: requestFormatOf(opts.model) } };
    const create = { model: opts.model, ...(opts.budget === undefined ? {} : { window: opts.budget }), ...request, clock: clock.read };
    const s = await repo.createSession(session, create);
    const commits = await replay(transcript, times, s, clock, () => progress.tick(`${label}${session}`));
    out.push({ id: session, nodes: transcript.entries.length, commits });
  }
  return out;
}

/** The clock of a replayed session: each read takes the next date queued, else the last one set. */
class ReplayClock {
  #queue: number[] = [];
  #at = 0;
  #now: number;

  constructor(start: number) {
    this.#now = start;
  }

  /** The next reads give `dates` in order, then `then`. */
  set(dates: readonly number[], then: number): void {
    this.#queue = [...dates];
    this.#at = 0;
    this.#now = then;
  }

  readonly read = (): number => (this.#at < this.#queue.length ? (this.#queue[this.#at++] as number) : this.#now);
}

/**
 * Appends every entry in order and commits before each model call: an assistant entry whose context ends with a user
 * or tool turn (an assistant entry right after an assistant without tool calls continues the same response, as
 * Claude Code logs split one reply over several lines). The entries before a model call and its commit land in one
 * write (`appendTurn`), each node dated by its entry and the commit by the call. Returns the number of commits.
 */
async function replay(t: Transcript, times: readonly number[], s: Session, clock: ReplayClock, tick: () => void): Promise<number> {
  const ids: string[] = [];
  // transcript indexes: the head, the assistant entries that called tools, the entries not written yet
  let head: number | undefined;
  const callers = new Set<number>();
  let pending: number[] = [];
  let commits = 0;
  const dateOf = (i: number): number => times[i] ?? 0;
  // the pending entries' inputs: a caller among them by its place in the batch
  const inputs = (): BatchNodeInput[] =>
    pending.map((i) => {
      const e = t.entries[i] as TranscriptEntry;
      const at = e.caller === undefined ? -1 : pending.indexOf(e.caller);
      return entryInput(e, e.caller === undefined ? undefined : at >= 0 ? at : ids[e.caller]);
    });
  // the pending entries appended in one write, then the commit of a model call at `call`
  const turn = async (call: number): Promise<void> => {
    clock.set(pending.map(dateOf), dateOf(call));
    if (pending.length === 0) await s.commit();
    else (await s.appendTurn(inputs())).nodes.forEach((node, k) => (ids[pending[k] as number] = node.id));
    pending = [];
    commits += 1;
  };
  // the pending entries appended one by one, without a commit
  const appendPending = async (): Promise<void> => {
    for (const i of pending) {
      const e = t.entries[i] as TranscriptEntry;
      clock.set([], dateOf(i));
      ids[i] = (await s.append(entryInput(e, e.caller === undefined ? undefined : ids[e.caller]))).id;
    }
    pending = [];
  };
  for (const [i, e] of t.entries.entries()) {
    if (e.role !== 'tool' && e.predecessor !== undefined && e.predecessor !== head) {
      await appendPending();
      clock.set([], dateOf(i));
      await s.checkout(ids[e.predecessor] as string);
      head = e.predecessor;
    }
    const endsWithAssistant = head !== undefined && t.entries[head]?.role === 'assistant' && !callers.has(head);
    if (e.role === 'assistant' && head !== undefined && !endsWithAssistant) await turn(i);
    if (e.caller !== undefined) callers.add(e.caller);
    pending.push(i);
    if (e.role !== 'tool') head = i;
    tick();
  }
  await appendPending();
  const last = t.head === null ? undefined : ids[t.head];
  if (last !== undefined && (await s.head()) !== last) await s.checkout(last);
  return commits;
}

/** The request body a model's provider receives: Anthropic Messages for `anthropic:` models, OpenAI Chat otherwise. */
function requestFormatOf(model: string): 'anthropic-messages' | 'openai-chat' {
  return model.startsWith('anthropic:') ? 'anthropic-messages' : 'openai-chat';
}

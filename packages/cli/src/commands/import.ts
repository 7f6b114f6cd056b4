import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { Transcript } from '@ctxgit/dag';
import { entryInput } from '@ctxgit/dag';
import type { Repo, Session } from '@ctxgit/commit';
import { canonicalJson, clearImportMarker, incompleteImports, markImport, openRepo, validateRefComponent } from '@ctxgit/commit';
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
import { syntheticTimes, SYNTHETIC_EPOCH_MS } from '../synthetic-clock.js';

/** Model of imported sessions when `--model` is absent. */
export const DEFAULT_IMPORT_MODEL = 'openai:gpt-4o';

interface ImportOptions extends CommonOptions {
  readonly format?: string;
  readonly session?: string;
  readonly model: string;
  readonly budget?: number;
  readonly clockStep: number;
  readonly fsync: boolean;
  readonly skipMalformed?: boolean;
}

/** Where a re-run resumes a killed import of the same transcript: entries before `skip` are written, as `ids`. */
interface Resume {
  readonly skip: number;
  readonly ids: readonly string[];
}

/** What `import --json` prints for one session. */
interface ImportedSession {
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

Nothing is written on failure: the import is first replayed into an in-memory repository. An import that was
killed is resumed by running the same command again (the nodes it wrote are recognized byte for byte); until it
completes, \`ctxgit verify\` lists its sessions as incomplete imports, with that command.

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
  const progress = createProgress(io.stderr, 2 * entries);
  try {
    // A dry run in memory first: any error of the DAG or the rules (an oversized node, a budget too small to fold
    // into) surfaces before the repository on disk is touched; it also gives the nodes the import writes (ids and
    // clock are deterministic), which is how a re-run recognizes a killed import of the same transcript and resumes it.
    // Sessions of one import are independent: a fresh memory repository per transcript keeps memory flat.
    const planned: string[][] = [];
    for (const n of named) {
      const memory = await openRepo({ memory: true });
      const [done] = await replayAll(memory, [n], opts, progress, 'checking ', new Map());
      planned.push(await Promise.all((done?.ids ?? []).map(async (id) => canonicalJson(await memory.store.getNode(id)))));
    }
    const repo = await openOrCreate(dir, { fsync: opts.fsync });
    const taken = new Set(await repo.listSessions());
    const marked = new Set((await incompleteImports(repo)).map((m) => m.session));
    const resume = new Map<string, Resume>();
    for (const [i, n] of named.entries()) {
      if (!taken.has(n.session)) continue;
      const written = await importedPrefix(repo, planned[i] ?? []);
      // a session this import wrote completely before it was killed (its marker is still set) resumes with nothing to write
      if (written === undefined || (written === (planned[i] ?? []).length && !marked.has(n.session))) {
        const why = written === undefined ? 'is not an import of this transcript' : 'holds this transcript already';
        throw new CliError('E_CLI_SESSION_EXISTS', `session ${JSON.stringify(n.session)} already exists in ${dir} and ${why}; import with another --session`, { session: n.session });
      }
      resume.set(n.session, { skip: written, ids: (planned[i] ?? []).map((json) => (JSON.parse(json) as { id: string }).id) });
    }
    // each session is marked until the whole import is written (verify reports a marked session as an incomplete
    // import, with this command line to resume it); a re-run of the same command finds the marker and resumes
    const again = resumeCommand(file, dir, opts);
    for (const { session } of named) await markImport(repo, session, again);
    const out = await replayAll(repo, named, opts, progress, '', resume);
    await repo.gc(); // the import's packs (one per write) and whatever was there become one pack
    for (const { session } of named) await clearImportMarker(repo, session);
    for (const { session, transcript } of named) {
      if (transcript.malformed.length > 0) io.stderr.write(`ctxgit: ${session}: skipped ${transcript.malformed.length} malformed (first: ${transcript.malformed[0]?.reason ?? ''})\n`);
    }
    return out.map(({ id, nodes, commits }) => ({ id, nodes, commits }));
  } finally {
    progress.done();
  }
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
 * How many of the planned nodes (canonical JSON, in entry order) the repository holds, byte for byte, as a prefix:
 * what a killed import of the same transcript wrote. Undefined when the repository holds something else.
 */
async function importedPrefix(repo: Repo, planned: readonly string[]): Promise<number | undefined> {
  let k = 0;
  for (const json of planned) {
    const id = (JSON.parse(json) as { id: string }).id;
    const node = await repo.store.getNode(id);
    if (node === undefined) break;
    if (canonicalJson(node) !== json) return undefined;
    k++;
  }
  if (k === 0 && planned.length > 0) {
    const first = JSON.parse(planned[0] ?? '{}') as { session?: string };
    // a session created but killed before its first node: nothing of it to compare, it can only be this import's
    const rec = await repo.store.getSession(first.session ?? '');
    if (rec !== undefined && rec.head !== null) return undefined;
  }
  return k;
}

/** Creates (or, for a killed import, re-opens) and replays every session into `repo`; `resume` skips what is written. */
async function replayAll(
  repo: Repo,
  named: readonly NamedTranscript[],
  opts: ImportOptions,
  progress: Progress,
  label: string,
  resume: ReadonlyMap<string, Resume>,
): Promise<(ImportedSession & { readonly ids: readonly string[] })[]> {
  const out: (ImportedSession & { readonly ids: readonly string[] })[] = [];
  for (const { session, transcript } of named) {
    const times = syntheticTimes(transcript.entries, opts.clockStep * 1000);
    let now = times[0] ?? SYNTHETIC_EPOCH_MS;
    // With --budget the window is the rendered request: items counted with the wrappers of the model's provider.
    const request = opts.budget === undefined ? {} : { request: { format: requestFormatOf(opts.model) } };
    const create = { model: opts.model, ...(opts.budget === undefined ? {} : { window: opts.budget }), ...request, clock: () => now };
    const skip = resume.get(session);
    // a killed import's session, or one whose config a kill kept from being written (createSession adopts it)
    const s = skip === undefined ? await repo.createSession(session, create) : await repo.openSession(session, { ...request, clock: () => now }).catch(async () => repo.createSession(session, create));
    const { commits, ids } = await replay(transcript, times, s, (t) => (now = t), () => progress.tick(`${label}${session}`), skip ?? { skip: 0, ids: [] });
    out.push({ id: session, nodes: transcript.entries.length, commits, ids });
  }
  return out;
}

/**
 * Appends every entry in order and commits before each model call: an assistant entry whose context ends with a user
 * or tool turn (an assistant entry right after an assistant without tool calls continues the same response, as
 * Claude Code logs split one reply over several lines). Returns the number of commits.
 */
async function replay(t: Transcript, times: readonly number[], s: Session, setNow: (ms: number) => void, tick: () => void, resume: Resume): Promise<{ commits: number; ids: string[] }> {
  const { skip, ids: known } = resume;
  const ids: string[] = [];
  const callers = new Set<string>();
  let head: string | null = null;
  let headRole: string | undefined;
  let commits = 0;
  for (const [i, e] of t.entries.entries()) {
    setNow(times[i] ?? 0);
    const live = i >= skip;
    // resuming: the first entry to write finds the session's head where the killed import left it
    if (i === skip && skip > 0 && head !== null && (await s.head()) !== head) await s.checkout(head);
    if (e.role !== 'tool' && e.predecessor !== undefined) {
      const want = ids[e.predecessor];
      if (want !== undefined && want !== head) {
        if (live) await s.checkout(want);
        head = want;
        headRole = t.entries[e.predecessor]?.role;
      }
    }
    const endsWithAssistant = headRole === 'assistant' && head !== null && !callers.has(head);
    if (e.role === 'assistant' && head !== null && !endsWithAssistant) {
      if (live) await s.commit();
      commits += 1;
    }
    const caller = e.caller === undefined ? undefined : ids[e.caller];
    const node = !live ? { id: known[i] ?? '' } : await s.append(entryInput(e, caller));
    ids.push(node.id);
    if (caller !== undefined) callers.add(caller);
    if (e.role !== 'tool') {
      head = node.id;
      headRole = e.role;
    }
    tick();
  }
  const last = t.head === null ? undefined : ids[t.head];
  if (last !== undefined && (last !== head || (await s.head()) !== last)) await s.checkout(last);
  return { commits, ids };
}

/** The request body a model's provider receives: Anthropic Messages for `anthropic:` models, OpenAI Chat otherwise. */
function requestFormatOf(model: string): 'anthropic-messages' | 'openai-chat' {
  return model.startsWith('anthropic:') ? 'anthropic-messages' : 'openai-chat';
}

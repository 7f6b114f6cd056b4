// Writes docs/reliability.md from the counts the reliability tests leave in ./.counts/*.json.
//   npx vitest run packages/commit/test/reliability packages/cli/test/import-resume.test.ts test/hostile-upper.test.ts
//   node --conditions=@ctxgit/source --import tsx packages/commit/test/reliability/write-reliability-doc.ts
// (`npm run reliability:full` does both at RELIABILITY_SCALE=10.)
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNTS = fileURLToPath(new URL('./.counts/', import.meta.url));
const DOC = fileURLToPath(new URL('../../../../docs/reliability.md', import.meta.url));
const NAMES = ['faults', 'crash', 'import-kill', 'concurrency', 'locks', 'hostile', 'hostile-upper', 'any-value', 'verify', 'corruption', 'verify-corpus'] as const;

type Counts = Record<string, number | string>;

/** The counts of the files `vitest run packages/commit/test/reliability packages/cli/test/import-resume.test.ts` runs. */
const SUITE = NAMES.filter((name) => name !== 'hostile-upper');

function load(): Record<string, Counts> {
  const out: Record<string, Counts> = {};
  for (const file of readdirSync(COUNTS).filter((f) => f.endsWith('.json'))) out[file.replace(/\.json$/u, '')] = JSON.parse(readFileSync(join(COUNTS, file), 'utf8')) as Counts;
  const missing = NAMES.filter((n) => out[n] === undefined);
  if (missing.length > 0) throw new Error(`no counts for ${missing.join(', ')}: run the reliability tests first`);
  return out;
}

const n = (c: Counts | undefined, key: string): number => (typeof c?.[key] === 'number' ? (c[key] as number) : 0);
const fmt = (x: number): string => x.toLocaleString('en-US');

export function reliabilityDoc(all: Record<string, Counts>): string {
  const f = all['faults'];
  const k = all['crash'];
  const c = all['concurrency'];
  const h = all['hostile'];
  const u = all['hostile-upper'];
  const v = all['verify'];
  const vc = all['verify-corpus'];
  const l = all['locks'];
  const ik = all['import-kill'];
  const co = all['corruption'];
  const av = all['any-value'];
  const lost = n(f, 'lost') + n(k, 'lost') + n(k, 'duplicates') + n(c, 'lost') + n(c, 'duplicates') + n(l, 'd1Lost') + n(l, 'd1Duplicates') + n(l, 'processLost');
  const rows: [string, string][] = [
    ['faults injected (every fs operation of a turn × ENOSPC / EIO / EACCES / crash / torn write)', fmt(n(f, 'injected'))],
    ['faults survived (typed error, reopened consistent, acknowledged data present, turn retried)', fmt(n(f, 'survived'))],
    [
      `processes killed with SIGKILL (fsync on): writers at random points of each operation / \`ctxgit import\` / one of 2, 4 or 8 concurrent writers (${fmt(n(k, 'concurrencyCases'))} cases)`,
      `${fmt(n(k, 'kills') - n(k, 'importKills') - n(k, 'concurrencyKills'))} / ${fmt(n(k, 'importKills'))} / ${fmt(n(k, 'concurrencyKills'))}`,
    ],
    ['kills by the operation the process was in', String(k?.['killsByOp'] ?? '')],
    ['checks after the kills: git fsck --strict runs (failures) / verify runs (failures) / next append + commit at once (slowest, ms)', `${fmt(n(k, 'fsckRuns'))} (${fmt(n(k, 'fsckFailures'))}) / ${fmt(n(k, 'verifyRuns'))} (${fmt(n(k, 'verifyFailures'))}) / ${fmt(n(k, 'nextTurns'))} (${fmt(n(k, 'nextTurnMaxMs'))})`],
    [
      'appends acknowledged / checks that found one on its chain exactly once (each is checked again after every later kill of its repository); commits acknowledged (that folded) / checks that read one; dead writers\' locks verify saw (taken over at once)',
      `${fmt(n(k, 'acknowledgedAppends'))} / ${fmt(n(k, 'appendsPresent'))}; ${fmt(n(k, 'acknowledgedCommits'))} (${fmt(n(k, 'foldCommits'))}) / ${fmt(n(k, 'commitsPresent'))}; ${fmt(n(k, 'staleLocksSeen'))}`,
    ],
    [
      'crash suite: CPU seconds (user + system of the test process and of every process it started: writers, `ctxgit import`, git) / wall seconds (cores; load average 1/5/15 min at start and end: other work on the machine)',
      `${fmt(n(k, 'fileCpuSeconds'))} / ${fmt(n(k, 'wallSeconds'))} (${fmt(n(k, 'cores'))} cores; ${String(k?.['loadAverageAtStart'] ?? '?')} → ${String(k?.['loadAverageAtEnd'] ?? '?')})`,
    ],
    [
      'CPU seconds of every file of the reliability suite at CI scale (each file\'s test process and the processes it started; wall time depends on the load of the machine, CPU time much less)',
      `${fmt(SUITE.reduce((sum, name) => sum + n(all[name], 'fileCpuSeconds'), 0))}: ${SUITE.map((name) => `${name} ${fmt(n(all[name], 'fileCpuSeconds'))}`).join(', ')}`,
    ],
    ['killed imports reported by verify as incomplete, with the command to resume / resumed to completion', `${fmt(n(k, 'importsReportedIncomplete') + n(ik, 'reportedIncomplete'))} / ${fmt(n(k, 'importsResumedToCompletion') + n(ik, 'resumedEqualToClean'))}`],
    ['concurrent appends attempted / present exactly once', `${fmt(n(c, 'appendsAttempted'))} / ${fmt(n(c, 'appendsPresent'))}`],
    [`D1: a dead writer's lock on the DAG ref, ${fmt(n(l, 'd1Writers'))} writers with their own openRepo, rounds / appends acknowledged / lost`, `${fmt(n(l, 'd1Rounds'))} / ${fmt(n(l, 'd1Acknowledged'))} / ${fmt(n(l, 'd1Lost'))}`],
    ['writer processes started on a dead process\'s lock: appends acknowledged / lost', `${fmt(n(l, 'processAcknowledged'))} / ${fmt(n(l, 'processLost'))}`],
    ['write conflicts met and retried (all typed)', fmt(n(c, 'conflicts'))],
    ['hostile inputs tried (library entry points and importers)', fmt(n(h, 'inputsTried'))],
    ['hostile render and CLI inputs tried', fmt(n(u, 'renderForgeryAttempts') + n(u, 'renderGarbageTried') + n(u, 'cliArgvTried'))],
    ['marker forgeries that got through render', fmt(n(u, 'forgeries'))],
    ['corruptions planted / detected by verifyRepo (named cases)', `${fmt(n(v, 'corruptions'))} / ${fmt(n(v, 'detected'))}`],
    [`objects of a sample repository (${fmt(n(co, 'objectsInRepo'))}: blobs, trees, commits of every ref's history) damaged one at a time (${fmt(n(co, 'ways'))} way(s) each) / flagged by verifyRepo`, `${fmt(n(co, 'planted'))} / ${fmt(n(co, 'flagged'))}`],
    [`arbitrary JavaScript values at ${fmt(n(av, 'entryPoints'))} public entry points (${fmt(n(av, 'runsPerEntryPoint'))} runs each): calls / typed refusals / writes on refusal`, `${fmt(n(av, 'calls'))} / ${fmt(n(av, 'typedRefusals'))} / ${fmt(n(av, 'writesOnRefusal'))}`],
    ['real transcripts replayed, then verified (ContextCommits / false alarms)', `${fmt(n(vc, 'transcripts'))} (${fmt(n(vc, 'commits'))} / ${fmt(n(vc, 'falseAlarms'))})`],
    ['untyped errors (raw errno, TypeError, RangeError)', fmt(n(f, 'untypedErrors') + n(h, 'untypedErrors') + n(u, 'cliUntyped') + n(c, 'untypedConflicts') + n(av, 'untyped'))],
    ['**data lost** (acknowledged appends or commits missing, duplicates)', `**${fmt(lost)}**`],
  ];
  const detail = (name: string, counts: Counts | undefined): string =>
    [`### ${name}`, '', '| count | value |', '|---|---|', ...Object.entries(counts ?? {}).filter(([key]) => key !== 'writtenAt').map(([key, value]) => `| ${key} | ${typeof value === 'number' ? fmt(value) : value} |`), ''].join('\n');
  const when = NAMES.map((name) => String(all[name]?.['writtenAt'] ?? '')).sort();
  return [
    '# Reliability and security of ctxgit',
    '',
    '<!-- Generated by packages/commit/test/reliability/write-reliability-doc.ts from the counts of a real run of the',
    '     reliability tests; do not edit by hand. -->',
    '',
    'A chat backend keeps running when the disk fills, the process dies mid-write, two requests race on one session,',
    'or a transcript is malformed or malicious. The tests of `packages/commit/test/reliability/` prove it by injecting',
    'those faults; this page is generated from the counts they recorded in one run',
    `(${when[0] ?? '?'} to ${when[when.length - 1] ?? '?'}).`,
    '',
    '| measure | count |',
    '|---|---|',
    ...rows.map(([a, b]) => `| ${a} | ${b} |`),
    '',
    '## What each test does',
    '',
    '- **faults.test.ts** — a fault-injecting fs (`fault-fs.ts`) wraps memfs and node\'s fs and fails the N-th operation of',
    '  one kind (write, rename, mkdir, fsync, read, open, unlink, stat, readdir) with ENOSPC, EIO or EACCES, or crashes there',
    '  (the call never happens, every later one fails: the process died), or tears a write (half the bytes land, then the',
    '  crash). The library makes a small file\'s calls synchronously where the fs has them (`openSync`, `renameSync`, …, as',
    '  node\'s fs and memfs do) and through `promises` otherwise: the wrapper offers both, faulted alike, and the sweep runs',
    '  with them on memfs and on disk, and with `promises` alone on memfs. A dry run counts the operations of one turn',
    '  (append + commit, fsync on); then every index of every kind is faulted on memfs with every mode, and a seeded',
    '  sample on disk (real fsync, `git fsck --strict` each time). Each case',
    '  checks: the call rejects with a ctxgit error class (never a raw errno); the same process can retry; a new process',
    '  reopens the storage, `verifyRepo` is clean, every append acknowledged before the fault is there byte for byte, no',
    '  ref names a commit of another head; after the start-up lock recovery the same turn succeeds, its text exactly once.',
    '  A second sweep faults every operation of creating a repository and a session.',
    '- **crash.test.ts** — writer processes run one JavaScript file with plain node (`fixtures/crash-worker.ts` bundled by',
    '  esbuild from the sources into `.build/` when the tests start, `bundle.ts`; each next victim loads while the last one',
    '  runs; sessions use an estimated-token model, so no BPE rank table loads per process), on disk repositories with',
    '  fsync on. Three lanes kill writers in append, commit (nothing to fold), a commit of a session whose small budget',
    '  makes it fold (the suite fills it past its fold threshold when it creates the repository), fork, attach and merge;',
    '  each victim starts at the operation it is aimed at (after what that needs: an append before a commit, a fork',
    '  before an attach or a merge; nothing else replayed) and dies at a random point of it (a seeded delay up to 1.2',
    '  times the mean duration of that operation so far; an attach or a merge victim makes one, then waits for its kill:',
    "  each brings the fork's whole context into `s`, the history they share included, and doubles it). A fourth lane kills",
    '  `ctxgit import` (the bundled CLI) at random',
    '  points of its writes and re-runs the same command, which resumes it, until it completes. A fifth runs the',
    '  concurrency cases: 2, 4 and 8 writer processes on one session or on separate sessions, with and without a dead',
    '  process\'s lock planted on a DAG ref, one of them killed at a random point. After every kill: `git fsck --strict`',
    '  (reads every object), `verifyRepo` (no error; its walk of every object of every ref\'s history on the last kill of',
    '  each repository, every 10 kills, and after every import and concurrency kill; an import killed mid-way is reported',
    '  as incomplete with the command that resumes it), every',
    '  acknowledged append on its session\'s chain exactly once (no text twice), every acknowledged commit readable, and',
    '  the next append + commit in one attempt with `staleLockMs: Infinity` (nothing may wait a lock out).',
    '- **pack-race.test.ts** — a reader racing two pack roll-ups of another process (forced interleaving) finds its',
    '  object: it reads the pack list again while packs vanish or the listing changes under it (the cause of a flake of',
    '  concurrency.test.ts under heavy load, and of the failures the crash suite\'s concurrency cases first found: a',
    '  just-written DAG commit, never gone from the repository, read as missing).',
    '- **lock-protocol.test.ts** — the lock protocol below: a dead process\'s lock is taken over at once (even with',
    '  `staleLockMs: Infinity`); a live process\'s lock is never removed however old, and the error names it and is',
    '  retryable; git\'s or another host\'s lock only once older than `staleLockMs`; `recoverStaleLocks` and',
    '  `removeTempObjects` remove dead writers\' leftovers and nothing of a live writer; 8 in-process racers over a dead',
    '  lock: exactly one swap wins per round. **D1**: a dead writer\'s lock planted before each round on one session\'s DAG ref',
    '  (`refs/ctxgit/sessions/<s>/dag`, a different session each round; an owner record of a dead pid, or git\'s format with an old mtime), then 8 writers, each with its own `openRepo` on',
    '  one directory (fsync on), append to their own sessions at once; every acknowledged append is on its chain exactly',
    '  once, no writer waits for a timeout. Then 8 writer processes start on a lock of an exited process.',
    '- **limits.test.ts** — a tool `input` of exactly `MAX_FIELD_BYTES` of JSON is accepted and later commits work; one byte',
    '  more, or 17 MB, is `E_DAG_FIELD_TOO_LARGE` with nothing written; the same for `metadata`, `name`, `reads`. Null-prototype',
    '  objects, throwing getters, proxies (throwing, revoked), cyclic objects, BigInt, symbols and functions in every field',
    '  of append and as session names are typed errors. Names differing from an existing session only by case, and names',
    '  with bidirectional controls (U+202A–U+202E, U+2066–U+2069), are refused.',
    '- **any-value.property.test.ts** — fast-check (seeded) over append, createSession, openSession, fork, checkout, retry,',
    '  edit, attach, merge, readCommit, log, expand, verifyRepo, markImport, clearImportMarker and incompleteImports with arbitrary JavaScript values (fast-check\'s anything,',
    '  hostile strings, and the poison values above): every call resolves or rejects typed; a refusal makes no mutating fs',
    '  call, and every 100th refusal also compares every file\'s bytes.',
    '- **corruption.test.ts** — every object `git rev-list --objects --all` lists in a sample repository (tool calls, a fold,',
    '  a fork, an attach, a merge, a recorded verification) is truncated, zeroed, byte-flipped or deleted, one at a time;',
    '  `verifyRepo` must fail on each. CI takes a seeded sample rotating the four ways; the full run does all four on all.',
    '- **packages/cli/test/import-resume.test.ts** — `ctxgit import` (the bundled CLI) killed with SIGKILL after its first write; `verify`',
    '  (library and CLI) lists the session as an incomplete import with the command to run (the same one); that command',
    '  resumes it and ends with the context commit a clean import makes; fsck and verify after each kill.',
    '- **concurrency.test.ts** — 8 async callers on one session and 4 on their own sessions in one process (memfs and',
    '  disk), and 5 processes (3 on one session, 2 on their own) on one disk repository: every acknowledged append is on',
    '  its session\'s chain exactly once, conflicts are `CommitConflictError` / `RefConflictError` and a retry lands, the DAG',
    '  verifies and `git fsck` is clean.',
    '- **hostile.test.ts**, **test/hostile-upper.test.ts** — fast-check (seeded) against append, createSession, openSession,',
    '  fork, importSession, attach, merge, readCommit, expand, checkout, retry, edit, siblings, log, openRepo, verifyRepo, the',
    '  three importers, render (every provider) and the CLI\'s `main(argv, io)`: ref names with `..`, `/`, control',
    '  characters, NUL, lone surrogates, `__proto__`/`constructor` keys, deep nesting, huge strings, paths escaping the',
    '  repository. Every call resolves or rejects with a typed error, within 10 s, and a rejected call makes no mutating fs',
    '  call (every tenth also compares every file\'s bytes); the prototype chain is never polluted. Text imitating',
    '  `<<ctxgit:attach …>>`, `<<ctxgit:/attach>>`, `<<ctxgit:begin>>` or a line-leading `[Summary]` never renders as a',
    '  marker in any provider (native tool-call arguments are passed through as the call\'s JSON), while real summaries',
    '  and attach blocks render theirs exactly once.',
    '- **verify-repo.test.ts** — `verifyRepo` on a repository with tool calls, folds, a fork, an attach and a merge is',
    '  clean (and `git fsck` agrees); each planted corruption (ref to a missing object, garbage ref, wrong object type,',
    '  index ref of another node, non-canonical item, item under another key, missing item, origin of another node,',
    '  missing summary original, missing head node, commit without meta.json, unexplained second parent, DAG node',
    '  rewritten after a verification, DAG history not descending from it, non-canonical node, dangling edge, cycle,',
    '  missing index entry, bad session record, damaged and deleted object files, missing marker) is reported with its',
    '  code, and the repository is clean again once it is undone. **verify-corpus.test.ts** replays transcripts of every',
    '  corpus format (`../shared/corpus`) and checks `verifyRepo` raises no false alarm.',
    '',
    '## The ref lock protocol',
    '',
    'Every ref update (`compareAndSwapRef`) runs under `<ref>.lock`, created exclusively as git does, so git and ctxgit',
    'exclude each other. What is new is that a writer never removes or overwrites a lock it does not own:',
    '',
    '1. **The lock names its owner.** Its bytes are one JSON line `{ctxgitLock, host, pid, nonce, time}`; the nonce is',
    '   random per acquisition, so the bytes identify exactly one holder. They are written to `<ref>~owner-<nonce>.lock`',
    '   and hard-linked to `<ref>.lock` (`link` fails with EEXIST when the lock exists), so a lock is never seen empty.',
    '2. **The owner checks the ref under the lock, writes the new value to a file of its own** (`<ref>~new-<nonce>.lock`,',
    '   fsynced), **checks that `<ref>.lock` still holds its bytes, and renames its value file onto the ref**, then removes',
    '   the lock if it still holds its bytes. The old protocol renamed `<ref>.lock` itself onto the ref, which moves',
    '   whatever is at that path: after a wrong takeover, two writers could both rename and both "succeed".',
    '3. **Stale means dead, not old.** A lock whose owner is a process of this host that no longer runs',
    '   (`process.kill(pid, 0)` fails with ESRCH) is stale at once, whatever its age; a lock of a live process of this host',
    '   is never stale, however old. Only a lock that names no owner of this host (another host sharing the directory,',
    '   git\'s own lock, an older ctxgit, a file without `link`) is judged by its age: stale once its mtime is `staleLockMs`',
    '   old (30 s by default).',
    '4. **Takeover is serialized and checked.** A writer that finds a stale lock takes the takeover guard',
    '   `<ref>~takeover.lock` (created exclusively, with an owner record, and itself taken over only when its owner is',
    '   dead), reads the lock again and, if it still holds the bytes judged stale, renames it to `<ref>~stale-<nonce>.lock`',
    '   and checks that what moved is those bytes; then removes it, releases the guard, and creates its own lock',
    '   exclusively (other writers race for it fairly; exactly one wins).',
    '5. **A competitor that is alive gets a retryable error that says so**: `RefConflictError` (`E_GIT_REF_CONFLICT`,',
    '   `data.reason: \'locked\'`, `data.retryable: true`, `data.holder` with its pid and host), and `CommitConflictError`',
    '   says "a live writer is writing session … right now"; a ref that moved says "another writer changed session … first".',
    '',
    '**Why no acknowledged write can be lost.** A write is acknowledged only after its rename onto the ref. The rename',
    'happens right after the owner saw its own bytes in `<ref>.lock`, so it is lost only if another writer also renamed a',
    'value in between, which needs a second lock holder, which needs someone to have removed the owner\'s lock. Only a',
    'taker removes a lock it does not own, and only one it judged stale: on this host the owner is then dead (it will',
    'never rename again), for another host it is older than `staleLockMs` (the assumption git makes too: no writer holds',
    'a lock that long). The remaining hazard was the one of issue 16: two takers judge the same dead lock; the first',
    'removes it, a third writer creates a fresh lock, and the second taker removes that fresh lock while believing it',
    'removes the dead one. Takers are serialized by the guard, and under the guard a taker re-reads the lock and moves it',
    'by one atomic rename; between that read and the rename nobody else may remove it (no other taker runs; its owner is',
    'dead) and nobody may create one (the path is occupied), so what moves is what was judged. The check after the move',
    'covers writers outside the protocol (a person, another tool): if the moved bytes are not the ones judged, they are put',
    'back by an exclusive create when the path is still free, and otherwise dropped; their owner then finds at its check',
    '(step 2) that the lock is not its own and fails with a retryable error, having written nothing. A guard whose owner',
    'died is taken over the same way (serialized only by the exclusive create of the next guard). A pid reused by an',
    'unrelated process keeps a dead writer\'s lock alive until `ctxgit verify --repair` is told otherwise; hosts that share',
    'a directory must have distinct host names (containers too).',
    '',
    '**Leftovers.** `recoverStaleLocks`, `removeTempObjects`, `openRepo({ recoverLocksOlderThanMs })` and',
    '`ctxgit verify --repair` remove only what dead writers left: locks by the judgement above; `~new-` value files whose',
    'nonce is not the current lock owner\'s (an owner removes its value before its lock); `~owner-` files of dead',
    'processes; `~stale-` files under the guard; temporary objects `objects/xx/tmp_obj_<host hash>-<pid>_…` whose pid is',
    'dead on this host (others once older than the age threshold). Nothing a live writer may still need is removed.',
    '',
    '`verifyRepo(repo, { record: true })` stores its token in `refs/ctxgit/verified`; later runs check that the DAG only',
    'grew since (that commit is an ancestor and every node and session record it held is unchanged).',
    '',
    '## Reproduce',
    '',
    'CI runs these suites at `RELIABILITY_SCALE=1` as part of `npm test`; the full run multiplies the counts (kills, D1',
    'rounds, property runs) by 10 and damages every object in all four ways, then regenerates this page:',
    '',
    '```sh',
    'npm run reliability:full',
    '# or, at CI scale:',
    'npx vitest run packages/commit/test/reliability packages/cli/test/import-resume.test.ts test/hostile-upper.test.ts',
    'node --conditions=@ctxgit/source --import tsx packages/commit/test/reliability/write-reliability-doc.ts',
    '```',
    '',
    '## Counts of each test file',
    '',
    ...NAMES.map((name) => detail(name, all[name])),
  ].join('\n');
}

writeFileSync(DOC, `${reliabilityDoc(load())}\n`);
process.stdout.write(`wrote ${DOC}\n`);

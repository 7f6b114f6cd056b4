import { SessionNameTakenError } from '../errors.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { listRefs } from '../git/list-refs.js';
import { readRef } from '../git/read-ref.js';
import { writeJoinedPack } from '../git/internal/pack-join.js';
import { wholeIndex } from '../git/internal/pack-index.js';
import { listPacks, packAll } from '../git/internal/pack-store.js';
import { stateOf } from '../git/internal/state.js';
import { IMPORTS_PREFIX } from './import-marker.js';
import type { Repo } from './repo.js';
import { SESSIONS_PREFIX, sessionOfRefComponent, sessionRefComponent } from '../store/refs.js';

/**
 * Every object of a repository as one pack, and its session refs: what {@link adoptSessionPack} copies into another.
 * The pack stays a file of the packed repository (streamed when adopted, never held in memory).
 */
export interface SessionPack {
  /** The pack's checksum (hex): its files are `objects/pack/pack-<checksum>.pack` and `.idx` of `source`. */
  readonly checksum: string;
  /** Objects in the pack. */
  readonly objects: number;
  /** Ref → oid: every ref of the repository but the import markers. */
  readonly refs: ReadonlyMap<string, string>;
  /** The packed repository, which holds the pack until it is adopted. */
  readonly source: Repo;
}

/** Options of {@link packSessions}. */
export interface PackSessionsOptions {
  /**
   * Search deltas across every object (`gc`): the smallest pack, at the cost of a delta search (seconds for thousands
   * of objects). `false` copies the entries of the packs the writes left (as automatic maintenance rolls them up):
   * for the chained corpus at 1,000 turns 0.15 s instead of 9.6 s, a peak of 288 MB instead of 1,191 MB, a pack
   * 1.3× larger (6.1 vs 4.7 MB: maintenance searched the small packs already). @defaultValue true
   */
  readonly compact?: boolean;
}

/** What {@link adoptSessionPack} did. */
export interface AdoptResult {
  /** Objects of the pack written (0 when there was nothing to write). */
  readonly objects: number;
  /** Refs created; the others already held their value (a resumed adoption). */
  readonly refsMoved: number;
}

/**
 * Packs a repository — typically one in memory into which sessions were just written — into one pack (`gc`, or its
 * packs' entries copied with `compact: false`) and
 * returns that pack with the repository's refs, for {@link adoptSessionPack}.
 *
 * @param repo - the source repository; its objects are repacked in place
 * @param options - see {@link PackSessionsOptions}
 * @returns its only pack (empty when it holds no object) and its refs
 * @example
 * ```ts
 * const memory = await openRepo({ memory: true });
 * await (await memory.createSession('chat', { model: 'openai:gpt-4o' })).commit();
 * const packed = await packSessions(memory);
 * await adoptSessionPack(await openRepo({ dir: './ctx.git' }), packed);
 * ```
 */
export async function packSessions(repo: Repo, options: PackSessionsOptions = {}): Promise<SessionPack> {
  const ctx = repo.git;
  if (options.compact === false) await packAll(ctx);
  else await repo.gc();
  const refs = new Map<string, string>();
  for (const ref of await listRefs(ctx, 'refs/')) {
    if (ref.startsWith(IMPORTS_PREFIX)) continue;
    const oid = await readRef(ctx, ref);
    if (oid !== null) refs.set(ref, oid);
  }
  const packs = await listPacks(ctx);
  if (packs.length === 0) return { checksum: '', objects: 0, refs, source: repo };
  const [only] = packs as [(typeof packs)[number]];
  if (packs.length !== 1 || stateOf(ctx).packs.get(only.name) === undefined) throw new Error(`packing left ${packs.length} packs`);
  return { checksum: only.name.slice('pack-'.length), objects: only.count, refs, source: repo };
}

/**
 * Writes a {@link SessionPack} into `repo`: its pack streamed into one pack file of `repo`, and its index (objects first), then each of its
 * refs, created by compare-and-swap. A ref that already holds the pack's value is left (so a killed adoption is
 * resumed by running it again); a ref that holds another value refuses the whole adoption before anything is written.
 *
 * @param repo - the target repository
 * @param packed - from {@link packSessions}
 * @returns the objects written and the refs created
 * @throws {@link SessionNameTakenError} when a session ref of the pack holds another value in `repo`; the git
 *   layer's errors (`RefConflictError` when a concurrent writer moved a ref meanwhile, `GitIoError`)
 * @example
 * ```ts
 * const r = await adoptSessionPack(repo, await packSessions(memory));
 * r.refsMoved; // the session refs created
 * ```
 */
export async function adoptSessionPack(repo: Repo, packed: SessionPack): Promise<AdoptResult> {
  const ctx = repo.git;
  const todo: [string, string][] = [];
  for (const [ref, oid] of packed.refs) {
    const now = await readRef(ctx, ref);
    if (now === oid) continue;
    if (now !== null) {
      const component = ref.startsWith(SESSIONS_PREFIX) ? ref.slice(SESSIONS_PREFIX.length).split('/')[0] : undefined;
      throw new SessionNameTakenError(component === undefined ? ref : sessionOfRefComponent(component));
    }
    todo.push([ref, oid]);
  }
  if (todo.length === 0) return { objects: 0, refsMoved: 0 };
  if (packed.objects > 0) {
    const name = `pack-${packed.checksum}`;
    const p = stateOf(packed.source.git).packs.get(name);
    if (p === undefined) throw new Error(`the packed repository no longer holds ${name}`);
    await writeJoinedPack(ctx, [{ from: packed.source.git, name, idx: await wholeIndex(packed.source.git, p) }]);
  }
  // in the order a session is written: its DAG, then what refers to it, its ContextCommit last; a killed adoption
  // leaves a session verify reads as an incomplete import, never one whose commits name nodes of a missing DAG
  todo.sort((a, b) => adoptionRank(a[0]) - adoptionRank(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [ref, oid] of todo) await compareAndSwapRef(ctx, ref, null, oid);
  return { objects: packed.objects, refsMoved: todo.length };
}

/** 0 for a DAG ref, 2 for a ContextCommit ref, 1 for any other. */
function adoptionRank(ref: string): number {
  return ref.endsWith('/dag') ? 0 : ref.endsWith('/context') ? 2 : 1;
}

/**
 * True when every ref `session` has in `repo` holds the value `packed` gives it: the session is what an adoption of
 * this pack wrote, completely or in part (a killed adoption, which adopting again completes).
 *
 * @param repo - the target repository
 * @param packed - from {@link packSessions}
 * @param session - a session name
 * @returns false when one of its refs holds another value or is not in the pack
 * @example
 * ```ts
 * if (await holdsSessionPack(repo, packed, 'chat')) await adoptSessionPack(repo, packed); // resume
 * ```
 */
export async function holdsSessionPack(repo: Repo, packed: SessionPack, session: string): Promise<boolean> {
  const prefix = `${SESSIONS_PREFIX}${sessionRefComponent(session)}/`;
  for (const ref of await listRefs(repo.git, prefix)) {
    if (packed.refs.get(ref) !== (await readRef(repo.git, ref))) return false;
  }
  return true;
}

import type { FsLike } from './fs-like.js';

/**
 * An opened git repository: every git primitive takes one. Create it with {@link openGit}.
 *
 * @remarks
 * `cache` holds the git layer's per-repository state (decoded objects and trees, loaded packs, objects pending in a
 * batch): a plain object the context owns (`{}` for a new one), so share one context per repository and process.
 */
export interface GitContext {
  readonly fs: FsLike;
  /** Absolute path of the bare repository (`/` joined, no trailing slash). */
  readonly gitdir: string;
  readonly cache: object;
  /** Called with the oid of every object read from storage (see `OpenGitCommonOptions.onObjectRead`). */
  readonly onObjectRead?: (oid: string) => void;
}

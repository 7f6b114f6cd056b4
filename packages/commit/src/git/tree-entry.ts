/**
 * One entry of a git tree: a blob (`100644`) or a subtree (`040000`) under a single path segment.
 *
 * @remarks
 * `mode` is written to the object as git does (`40000` for trees); readers return `040000`.
 */
export interface TreeEntry {
  readonly mode: '100644' | '040000';
  /** One path segment: no `/`, not `.`, `..` or `.git`, no NUL. */
  readonly path: string;
  readonly oid: string;
  readonly type: 'blob' | 'tree';
}

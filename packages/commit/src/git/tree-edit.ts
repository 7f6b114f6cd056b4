/** One change of {@link updateTree}: put `oid` at `path`, or delete what is there when `oid` is null. */
export interface TreeEdit {
  /** Path segments from the root, at least one. */
  readonly path: readonly string[];
  readonly oid: string | null;
  /** The type of `oid` (ignored when deleting). */
  readonly type: 'blob' | 'tree';
}

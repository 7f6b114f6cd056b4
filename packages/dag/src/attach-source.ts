/** What an attach pointer node points at; stored as `metadata.attach` of the node. */
export interface AttachSource {
  /** The attached session. */
  readonly session: string;
  /** The node of that session whose context is attached. */
  readonly head: string;
  /** The id (40 or 64 lowercase hex digits) of the ContextCommit of that head being attached. */
  readonly commit: string;
}

/**
 * The structural markers ctxgit writes into rendered text. Every marker starts with
 * {@link MARKER_NAMESPACE} or is {@link SUMMARY_PREFIX} at the start of a line; text from users and
 * tools that imitates one is escaped by {@link escapeMarkers}.
 *
 * - `[Summary] ` starts the text of a `summary` item.
 * - `<<ctxgit:attach from="ID">>` opens and `<<ctxgit:/attach>>` closes a block of items expanded from the
 *   attach pointer node `ID` (JSON-quoted), each on a line of its own.
 * - `<<ctxgit:begin>>` is the user text an Anthropic request opens with when its first message would
 *   otherwise be the assistant's (e.g. a summary right after the system prompt).
 */
export const MARKER_NAMESPACE = '<<ctxgit:';

/** Prefix of a summary item's rendered text (followed by one space). */
export const SUMMARY_PREFIX = '[Summary]';

/** Closes an attach block. */
export const ATTACH_CLOSE = '<<ctxgit:/attach>>';

/** The user text inserted before a leading assistant message where the provider needs a user turn first. */
export const OPENING_USER_TEXT = '<<ctxgit:begin>>';

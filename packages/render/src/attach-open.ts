/** Opening marker of an attach block from pointer node `from` (JSON-quoted). */
export function attachOpen(from: string): string {
  return `<<ctxgit:attach from=${JSON.stringify(from)}>>`;
}

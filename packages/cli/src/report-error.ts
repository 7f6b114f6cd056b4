import { CliError } from './errors.js';

/** One line for stderr naming the error and its code: `ctxgit: <message> [<code>]`. */
export function errorLine(err: unknown): string {
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const line = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim();
  return `ctxgit: ${line}${code === undefined ? '' : ` [${code}]`}\n`;
}

/** The stable `code` of a ctxgit error (any package), if it has one. */
export function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return undefined;
  return code.startsWith('E_') ? code : err instanceof CliError ? code : 'E_CLI_USAGE';
}

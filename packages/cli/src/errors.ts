import { CtxgitError } from '@ctxgit/errors';

/** A JSON-able payload describing what went wrong. */
export type CliErrorData = { readonly [key: string]: unknown };

/**
 * Base class (a {@link CtxgitError}) of every error the `ctxgit` command raises itself (errors of the packages keep their own classes
 * and codes). `code` is stable: `E_CLI_USAGE`, `E_CLI_NO_REPO`, `E_CLI_READ_FILE`, `E_CLI_FORMAT`,
 * `E_CLI_UNKNOWN_COMMIT`, `E_CLI_UNKNOWN_SESSION`, `E_CLI_SESSION_EXISTS`, `E_CLI_VERIFY_FAILED`, `E_CLI_BAD_DATE`.
 *
 * @example
 * ```ts
 * try { throw new CliError('E_CLI_USAGE', '--budget must be a positive integer', { value: '-1' }); }
 * catch (e) { if (e instanceof CliError) console.error(e.code); }
 * ```
 */
export class CliError extends CtxgitError<CliErrorData> {
  /** The process exit code the command ends with: 2 for usage errors, 1 otherwise. */
  readonly exitCode: number;
  constructor(code: string, message: string, data: CliErrorData = {}, options?: { readonly cause?: unknown; readonly exitCode?: number }) {
    super(code, message, data, options?.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options?.exitCode ?? 1;
  }
}

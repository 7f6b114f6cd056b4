/** A stream the CLI writes to: `process.stdout` and `process.stderr` fit. */
export interface CliStream {
  write(text: string): unknown;
  /** True when the stream is a terminal (the import progress bar is shown only then). */
  readonly isTTY?: boolean;
  /** Width of the terminal in columns, when it is one. */
  readonly columns?: number;
}

/**
 * Everything {@link main} touches outside its arguments, injected so that tests run the CLI in-process.
 * `cwd` resolves relative paths (`--repo`, files); `env` supplies `CTXGIT_REPO` (the default `--repo`).
 */
export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Directory relative paths are resolved against. */
  readonly cwd: string;
  /** Environment variables; only `CTXGIT_REPO`, `CTXGIT_REMOTE_USER`, `CTXGIT_REMOTE_PASSWORD` and `SOURCE_DATE_EPOCH` are read. */
  readonly env: { readonly [name: string]: string | undefined };
}

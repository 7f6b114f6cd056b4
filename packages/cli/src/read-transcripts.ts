import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Transcript, TranscriptFormat } from '@ctxgit/dag';
import { importClaudeCode, importOpenAIChat, importSweAgentTraj, MalformedTranscriptError, validateSessionName } from '@ctxgit/dag';
import { CliError } from './errors.js';

/** The formats `ctxgit import --format` accepts. */
export const IMPORT_FORMATS: readonly TranscriptFormat[] = ['openai-chat', 'swe-agent', 'claude-code'];

/** A transcript of a file with the session name it is imported under. */
export interface NamedTranscript {
  readonly session: string;
  readonly transcript: Transcript;
}

/** Reads a file as UTF-8, turning fs errors into a one-line CliError. */
export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
    throw new CliError('E_CLI_READ_FILE', `cannot read ${path}: ${why}`, { path, reason: code }, { cause: err });
  }
}

/**
 * Parses a whole transcript file in the given format and names its sessions: `<base>` for a file holding one
 * conversation, `<base>-<index>` (0-based, in file order) for several, `base` being `session` or the file's stem.
 * Nothing is written: malformed input throws before the repository is opened (unless `skipMalformed`, which skips
 * and counts it).
 */
export function readTranscripts(text: string, file: string, format: string, session: string | undefined, skipMalformed = false): NamedTranscript[] {
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliError('E_CLI_FORMAT', `unknown format ${JSON.stringify(format)}; use one of ${IMPORT_FORMATS.join(', ')}`, { format }, { exitCode: 2 });
  }
  if (text.trim() === '') throw new CliError('E_CLI_FORMAT', `${file} is empty; expected a transcript in the ${format} format`, { file, format });
  const opts = { malformed: skipMalformed ? ('skip' as const) : ('throw' as const) };
  let transcripts: Transcript[];
  try {
    transcripts = format === 'openai-chat' ? importOpenAIChat(text, opts) : format === 'swe-agent' ? [importSweAgentTraj(text, opts)] : [importClaudeCode(text, opts)];
  } catch (err) {
    if (!(err instanceof MalformedTranscriptError)) throw err;
    const hint = err.message.replace(/import with malformed: 'skip'/, 'pass --skip-malformed');
    throw new CliError(err.code, `${file}: ${hint}`, err.data, { cause: err });
  }
  const base = session ?? basename(file, extname(file));
  const named = transcripts.map((transcript, i) => ({ session: transcripts.length === 1 ? base : `${base}-${i}`, transcript }));
  for (const n of named) validateSessionName(n.session);
  return named;
}

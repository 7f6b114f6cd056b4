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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The format a transcript's text looks like, from its shape alone (nothing is imported): a JSON object with a
 * `history` or `trajectory` array is a SWE-agent trajectory; JSON lines whose first record has a `type` and a
 * `message`, `uuid` or `sessionId` are a Claude Code log; a conversation (an array of messages, or an object or
 * JSON lines with a `messages` or `traj` array) is OpenAI chat. Undefined when it looks like none of them.
 *
 * @param text - the file's text
 * @returns the format, or undefined
 * @example
 * ```ts
 * sniffFormat('{"history": []}'); // 'swe-agent'
 * ```
 */
export function sniffFormat(text: string): TranscriptFormat | undefined {
  const whole = parsed(text);
  if (isRecord(whole) && (Array.isArray(whole['history']) || Array.isArray(whole['trajectory']))) return 'swe-agent';
  const first = parsed(text.split('\n').find((l) => l.trim() !== '') ?? '');
  const conversation = (v: unknown): boolean => Array.isArray(v) || (isRecord(v) && (Array.isArray(v['messages']) || Array.isArray(v['traj'])));
  if (conversation(whole) || (whole === undefined && conversation(first))) return 'openai-chat';
  if (isRecord(first) && typeof first['type'] === 'string' && ('message' in first || 'uuid' in first || 'sessionId' in first)) return 'claude-code';
  return undefined;
}

function importAs(text: string, format: TranscriptFormat, malformed: 'skip' | 'throw'): Transcript[] {
  const opts = { malformed };
  return format === 'openai-chat' ? importOpenAIChat(text, opts) : format === 'swe-agent' ? [importSweAgentTraj(text, opts)] : [importClaudeCode(text, opts)];
}

/**
 * Parses a whole transcript file in the given format (default: the one it looks like, {@link sniffFormat}) and names its sessions: `<base>` for a file holding one
 * conversation, `<base>-<index>` (0-based, in file order) for several, `base` being `session` or the file's stem.
 * Nothing is written: malformed input throws before the repository is opened (unless `skipMalformed`, which skips
 * and counts it).
 */
export function readTranscripts(text: string, file: string, given: string | undefined, session: string | undefined, skipMalformed = false): NamedTranscript[] {
  if (text.trim() === '') throw new CliError('E_CLI_FORMAT', `${file} is empty; expected a transcript${given === undefined ? '' : ` in the ${given} format`}`, { file, format: given ?? null });
  const sniffed = sniffFormat(text);
  const format = given ?? sniffed;
  if (format === undefined) {
    throw new CliError('E_CLI_FORMAT', `${file} looks like none of the formats ${IMPORT_FORMATS.join(', ')}; pass --format`, { file }, { exitCode: 2 });
  }
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliError('E_CLI_FORMAT', `unknown format ${JSON.stringify(format)}; use one of ${IMPORT_FORMATS.join(', ')}`, { format }, { exitCode: 2 });
  }
  let transcripts: Transcript[];
  try {
    transcripts = importAs(text, format as TranscriptFormat, skipMalformed ? 'skip' : 'throw');
  } catch (err) {
    if (!(err instanceof MalformedTranscriptError)) throw err;
    if (sniffed !== undefined && sniffed !== format) {
      // the file is of another format: say so, rather than point at --skip-malformed
      throw new CliError(err.code, `${file} is not a ${format} transcript: it looks like ${sniffed}; pass --format ${sniffed}, or leave --format out`, { ...err.data, format, likely: sniffed }, { cause: err });
    }
    const hint = err.message.replace(/import with malformed: 'skip'/, 'pass --skip-malformed');
    throw new CliError(err.code, `${file}: ${hint}`, err.data, { cause: err });
  }
  const base = session ?? basename(file, extname(file));
  const named = transcripts.map((transcript, i) => ({ session: transcripts.length === 1 ? base : `${base}-${i}`, transcript }));
  for (const n of named) validateSessionName(n.session);
  return named;
}

const PATH_KEY = /path|file|filename|target/i;
const COMMAND_KEY = /^(?:command|cmd|input|script|action)$/i;
const HEADER = /^\[File: ([^\s\]]+)/;
const PATHLIKE = /^[A-Za-z0-9_.~/-]+$/;
const EXT = /\.[A-Za-z0-9]{1,6}$/;
const WRITE_NAME = /edit|write|create|replace|patch|insert|append|save|mkdir|delete|remove|move|rename/i;
const WRITE_VERB = new Set(['edit', 'create', 'touch', 'rm', 'mv', 'cp', 'mkdir', 'tee', 'patch', 'insert', 'append']);

/** The file paths one tool operation touches, and whether it writes them. */
export interface Operation {
  readonly paths: readonly string[];
  readonly writes: boolean;
}

const clean = (p: string): string => p.replace(/^["']|["']$/g, '').replace(/^\.\//, '');

const fromCommand = (command: string, paths: Set<string>): string => {
  const words = command.trim().split(/\s+/);
  for (const w of words.slice(1)) {
    const c = clean(w);
    if (c.startsWith('-') || c.length < 2 || !PATHLIKE.test(c)) continue;
    if (c.includes('/') || EXT.test(c)) paths.add(c);
  }
  return words[0] ?? '';
};

/** Paths from the call's arguments (path-like keys, or path words of a command) and a `[File: …]` header. */
export function operationPaths(name: string, args: string, output: string): Operation {
  const paths = new Set<string>();
  let verb = '';
  let sedInPlace = false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    parsed = args;
  }
  if (typeof parsed === 'string') {
    verb = fromCommand(parsed, paths);
    sedInPlace = /\bsed\s+-i/.test(parsed) || /[^2]>\s*\S/.test(parsed);
  } else if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof v !== 'string') continue;
      if (PATH_KEY.test(k) && v.length > 0 && v.length < 300 && !/\s/.test(v)) paths.add(clean(v));
      else if (COMMAND_KEY.test(k)) {
        const w = fromCommand(v, paths);
        if (verb === '') verb = w;
        sedInPlace ||= /\bsed\s+-i/.test(v) || /[^2]>\s*\S/.test(v);
      }
    }
  }
  const header = HEADER.exec(output);
  if (header?.[1] !== undefined) paths.add(clean(header[1]));
  const writes = WRITE_NAME.test(name) || WRITE_VERB.has(verb) || sedInPlace;
  return { paths: [...paths].sort(), writes };
}

import { constants } from 'node:os';

const MESSAGES = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EBADF: 'bad file descriptor',
  EPERM: 'operation not permitted',
  EINVAL: 'invalid argument',
  EBUSY: 'resource busy or locked',
} as const;

/** An errno of the in-memory file system. */
export type MemoryFsCode = keyof typeof MESSAGES;

/** An error as node's fs throws it: `code`, `errno`, `syscall`, and `path` (and `dest`) when the call named one. */
export interface MemoryFsError extends Error {
  readonly code: MemoryFsCode;
  readonly errno: number;
  readonly syscall: string;
  readonly path?: string;
  readonly dest?: string;
}

/** The error node gives for `code` in `syscall` on `path` (`path -> dest` for a link or a rename), message included. */
export function fsError(code: MemoryFsCode, syscall: string, path?: string, dest?: string): MemoryFsError {
  const where = path === undefined ? '' : dest === undefined ? ` '${path}'` : ` '${path}' -> '${dest}'`;
  const err = new Error(`${code}: ${MESSAGES[code]}, ${syscall}${where}`);
  const fields: { errno: number; code: MemoryFsCode; syscall: string; path?: string; dest?: string } = { errno: -(constants.errno[code] ?? 0), code, syscall };
  if (path !== undefined) fields.path = path;
  if (dest !== undefined) fields.dest = dest;
  return Object.assign(err, fields);
}

/**
 * Who writes: the host and process id a writer records in the ref locks it takes (`<ref>.lock` names its owner), and
 * how a writer tells whether the owner of a lock on this host is still running. A lock whose owner runs on this host
 * and is dead is released at once; a lock of another host is released once older than `staleLockMs`.
 *
 * @remarks
 * The default is this process: `os.hostname()`, `process.pid`, and `process.kill(pid, 0)` (ESRCH: dead). Pass
 * another one only to simulate other processes in tests, or when hosts share a name (containers sharing a volume
 * must have distinct host names, or their pids would be compared across pid namespaces).
 */
export interface LockIdentity {
  /** The host name written in each lock. */
  readonly host: string;
  /** The process id written in each lock. */
  readonly pid: number;
  /** Whether a process with this pid runs on this host. */
  isAlive(pid: number): boolean;
}

import { execFileSync } from 'node:child_process';

/**
 * The commit and dirty flag of the repository at `root`, read with `git rev-parse HEAD` and
 * `git status --porcelain` (read-only). Without git or without a commit: `uncommitted`, dirty.
 * @example
 * ```ts
 * gitState('/work/main'); // { commit: '429ec20…', dirty: true }
 * ```
 */
export function gitState(root: string): { commit: string; dirty: boolean } {
  const git = (args: string[]): string | null => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const commit = git(['rev-parse', 'HEAD']);
  if (commit === null || !/^[0-9a-f]{40}$/.test(commit)) return { commit: 'uncommitted', dirty: true };
  const status = git(['status', '--porcelain']);
  return { commit, dirty: status === null || status !== '' };
}

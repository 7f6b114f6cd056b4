import { spawnSync } from 'node:child_process';

/** Objects of the repository at `gitdir`, loose and packed, as `git count-objects -v` counts them. */
export function objectCount(gitdir: string): number {
  const r = spawnSync('git', ['--git-dir', gitdir, 'count-objects', '-v'], { encoding: 'utf8' });
  const get = (k: string): number => Number(new RegExp(`^${k}: (\\d+)$`, 'mu').exec(r.stdout)?.[1] ?? 0);
  return get('count') + get('in-pack');
}

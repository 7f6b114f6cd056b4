import { GitArgumentError } from '../errors.js';
import { assertSegment } from './tree-codec.js';

export function assertPath(argument: string, path: unknown): asserts path is readonly string[] {
  if (!Array.isArray(path)) throw new GitArgumentError(argument, 'expected an array of path segments');
  for (const segment of path) assertSegment(segment);
}

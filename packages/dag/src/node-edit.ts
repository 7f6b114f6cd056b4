import type { Json } from './node.js';
import type { NodeMetadata } from './options.js';

/** The content fields an edit replaces; a field left out keeps the original's value. */
export interface NodeEdit {
  readonly name?: string;
  readonly input?: Json;
  readonly output?: string;
  readonly reads?: readonly string[];
  readonly metadata?: NodeMetadata;
}

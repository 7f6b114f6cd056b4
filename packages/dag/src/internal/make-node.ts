import type { Json, Node, Role } from '../node.js';
import type { NodeMetadata } from '../options.js';

/** Every field of a node, optional ones possibly `undefined`. */
export interface NodeParts {
  readonly id: string;
  readonly session: string;
  readonly seq: number;
  readonly createdAt: number;
  readonly role: Role;
  readonly name?: string | undefined;
  readonly input?: Json | undefined;
  readonly output: string;
  readonly predecessor?: string | undefined;
  readonly caller?: string | undefined;
  readonly reads?: readonly string[] | undefined;
  readonly metadata?: NodeMetadata | undefined;
}

/** Builds a {@link Node} in canonical key order, omitting absent optional fields. */
export function makeNode(p: NodeParts): Node {
  return {
    id: p.id,
    session: p.session,
    seq: p.seq,
    createdAt: p.createdAt,
    role: p.role,
    ...(p.name === undefined ? {} : { name: p.name }),
    ...(p.input === undefined ? {} : { input: p.input }),
    output: p.output,
    ...(p.predecessor === undefined ? {} : { predecessor: p.predecessor }),
    ...(p.caller === undefined ? {} : { caller: p.caller }),
    ...(p.reads === undefined ? {} : { reads: p.reads }),
    ...(p.metadata === undefined ? {} : { metadata: p.metadata }),
  };
}

import { nodeStoreConformance } from '../../dag/test/node-store-conformance.js';
import { GitNodeStore } from '../src/store/git-node-store.js';
import { FS_KINDS } from './git-fixtures.js';

for (const kind of FS_KINDS) {
  nodeStoreConformance(`GitNodeStore on ${kind.name}`, async () => new GitNodeStore(await kind.open(), { clock: () => 1_700_000_000_000 }));
}

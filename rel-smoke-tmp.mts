import { memStorage } from './packages/commit/test/reliability/support.ts';
import { buildRepo } from './packages/commit/test/reliability/build-repo.ts';
import { verifyRepo } from './packages/commit/src/verify/verify-repo.ts';
const b = await buildRepo(memStorage());
console.log(b.folded.items.map((i) => `${i.key.slice(0,8)} ${i.state} ${i.mergedInto ?? ''} ${i.folded?.length ?? ''}`).join('\n'));
console.log(JSON.stringify(await verifyRepo(b.repo)));

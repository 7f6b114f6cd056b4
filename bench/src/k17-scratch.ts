import { openRepo } from '@ctxgit/commit';
import { chainCorpus, prefix, TurnFeeder } from './commit.js';
const turns = 300;
const chain = await chainCorpus(turns + 2);
let t = 1_700_000_000_000;
const clock = (): number => (t += 1000);
const repo = await openRepo({ memory: true, clock, fsync: false });
const start = prefix(chain, 1);
const session = await repo.importSession('bench', start, { model: 'openai:gpt-4o', window: 32_000, clock });
await session.commit();
const feeder = new TurnFeeder(chain, start.head as number, (await session.head()) as string);
const c0 = process.cpuUsage();
for (let k = 1; k < turns; k++) {
  const { inputs, record } = feeder.next(chain.calls[k] as number);
  record((await session.appendTurn(inputs)).nodes);
}
const c = process.cpuUsage(c0);
const fs = repo.git.fs.promises;
let bytes = 0;
for (const f of (await fs.readdir(`${repo.git.gitdir}/objects/pack`)).map(String)) bytes += Number(((await fs.stat(`${repo.git.gitdir}/objects/pack/${f}`)) as unknown as { size: number }).size);
process.stdout.write(`${process.env['LVL']} cpu ${((c.user + c.system) / 1000 / turns).toFixed(2)} ms/turn, pack bytes ${bytes}\n`);

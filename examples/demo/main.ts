// `npm run demo [-- --file <transcript>] [--format F] [--budget N] [--clock-step S] [--repo DIR]`: see demo.ts.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runDemo } from './demo.js';

const { values } = parseArgs({
  options: { file: { type: 'string' }, format: { type: 'string' }, budget: { type: 'string' }, 'clock-step': { type: 'string' }, repo: { type: 'string' } },
  allowPositionals: false,
});
const num = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
};
const budget = num('budget', values.budget);
const clockStep = num('clock-step', values['clock-step']);
try {
  await runDemo(
    {
      root: fileURLToPath(new URL('../../', import.meta.url)),
      ...(values.file === undefined ? {} : { file: values.file }),
      ...(values.format === undefined ? {} : { format: values.format }),
      ...(values.repo === undefined ? {} : { repo: values.repo }),
      ...(budget === undefined ? {} : { budget }),
      ...(clockStep === undefined ? {} : { clockStep }),
    },
    (line) => console.log(line),
  );
} catch (err) {
  console.error(`demo: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}

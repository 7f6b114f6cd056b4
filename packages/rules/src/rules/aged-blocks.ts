import { briefValues } from '../brief-values.js';
import type { Block, ContextItem } from '../item.js';
import { headOf } from '../head-of.js';
import { isFailedResult } from '../is-failed-result.js';
import type { ResolvedRulesOptions } from '../options.js';

/** Byte allowance of the `VALUES:` line an aged result's stub keeps. */
const AGED_VALUES_BYTES = 240;

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Blocks of an aged tool item: arguments cut to `callArgsChars`, the result a one-line stub (when shorter) followed by
 * a `VALUES:` line of its distinctive values (at most 240 bytes; see `briefValues`), `isError` set on a recognized failure.
 */
export function agedBlocks(blocks: readonly Block[], outputChars: number | undefined, o: ResolvedRulesOptions): Block[] {
  return blocks.map((b): Block => {
    if (b.type === 'tool_call') {
      return b.arguments.length > o.callArgsChars ? { ...b, arguments: `${headOf(b.arguments, o.callArgsChars)}…` } : b;
    }
    if (b.type === 'tool_result') {
      const line = oneLine(b.output);
      const shown = line.length > o.stubChars ? `${headOf(line, o.stubChars)}…` : line;
      // The stub keeps the result's distinctive values (ids, codes, fields a later call passes), ranked as a brief ranks them.
      const values = line.length > o.stubChars ? briefValues([{ role: 'tool', blocks } as ContextItem], AGED_VALUES_BYTES) : '';
      const stub = `[tool ${b.name}] output: ${shown} (${outputChars ?? b.output.length} chars)${values === '' ? '' : `\n${values}`}`;
      // A recognized failure keeps saying so once its text is gone.
      const failed = isFailedResult(b.output, b.isError);
      const out = stub.length < b.output.length ? { ...b, output: stub } : b;
      return failed && out.isError !== true ? { ...out, isError: true } : out;
    }
    return b;
  });
}

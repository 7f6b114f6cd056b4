/**
 * The string values of a call's JSON arguments, one a line (so an escaped newline does not glue words), each after
 * its name when `names`; the text itself when it is not JSON.
 */
export function argumentText(args: string, names: boolean): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args) as unknown;
  } catch {
    return args;
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (names) out.push(k);
        walk(x);
      }
    }
  };
  walk(parsed);
  return out.join('\n');
}

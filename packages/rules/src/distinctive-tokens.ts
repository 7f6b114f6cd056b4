/** Frequent English and programming words that say nothing about a particular result. */
const COMMON = new Set(
  (
    'about above after again against along already also although always among another answer anything around ' +
    'because become before began being below between both build called could course doing during each either ' +
    'else error every example false first following found from further given going great happen having here ' +
    'however import including inside instead into issue itself just known large later least line lines little ' +
    'looks maybe means might more most much must need needs never next none note nothing now number often ' +
    'only order other others output over perhaps place point print probably problem quite rather really ' +
    'result return right running same second seems should show shown since small something still string ' +
    'such take than that their them then there these they thing things think this those though three through ' +
    'today together total under until update using usually value values very want wants well were what when ' +
    'where whether which while will with within without would write wrong years yes your true null class ' +
    'const function def self none default object should let\'s check please thanks could make sure first ' +
    'command file files directory current open lines total'
  ).split(' '),
);

/**
 * Whether a lower-case word is a frequent English or programming word that says nothing about a particular result.
 * @example
 * ```ts
 * isCommonWord('because'); // true
 * ```
 */
export function isCommonWord(word: string): boolean {
  return COMMON.has(word);
}

/**
 * The distinctive tokens of a text: runs of letters, digits and `_ . / -` (so paths and identifiers stay
 * whole), trimmed of leading and trailing `. / -`, 5 to 64 characters long, containing a letter, lower-cased,
 * minus common words.
 *
 * @param text - Any text.
 * @returns The set of tokens.
 * @example
 * ```ts
 * distinctiveTokens('Open src/app/main.py and fix parse_config.'); // Set { 'src/app/main.py', 'parse_config' }
 * ```
 */
export function distinctiveTokens(text: string): Set<string> {
  const out = new Set<string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Skip to the next token character.
    while (i < n && !isTokenChar(text.charCodeAt(i))) i++;
    let start = i;
    while (i < n && isTokenChar(text.charCodeAt(i))) i++;
    let end = i;
    if (end - start < 5) continue;
    while (start < end && isEdge(text.charCodeAt(start))) start++;
    while (end > start && isEdge(text.charCodeAt(end - 1))) end--;
    const len = end - start;
    if (len < 5 || len > 64) continue;
    let letter = false;
    for (let k = start; k < end && !letter; k++) {
      const c = text.charCodeAt(k) | 0x20;
      letter = c >= 0x61 && c <= 0x7a;
    }
    if (!letter) continue;
    const t = text.slice(start, end).toLowerCase();
    if (!COMMON.has(t)) out.add(t);
  }
  return out;
}

/** Letters, digits and `_ . / -`. */
function isTokenChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d;
}

/** `.`, `/` and `-`, trimmed from both ends of a token. */
function isEdge(c: number): boolean {
  return c === 0x2e || c === 0x2f || c === 0x2d;
}

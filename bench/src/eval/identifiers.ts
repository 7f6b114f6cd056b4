/**
 * Distinctive identifiers of a text, as the dependency-recall metric sees them: runs of letters, digits and
 * path/identifier punctuation (`_ . / - :`), trimmed of trailing punctuation, 5–64 characters long, containing a
 * letter, lowercased, with common English words removed. This is the bench's own definition, written
 * independently of `@ctxgit/rules`, so that the metric does not grade ctxgit with ctxgit's own code.
 */

const COMMON_WORDS = new Set(
  (
    'about above actually after again against agent all allow along already also always among another answer ' +
    'any anyone anything apply around asked assist available based because become been before began begin ' +
    'being below better between black both bring build built called cancel cannot carry cause change check ' +
    'choose clear close color could count cover create cross current customer daily details different doing ' +
    'done during each early earth eight either else empty enough error every example except false field ' +
    'figure final first follow following force found friday front further given going great green group ' +
    'happy having heard heavy hello help here horse house however human information instead issue itself ' +
    'just know known large later learn least leave less let light like likely line list little look looking ' +
    'made make making many maybe means might minutes modify monday money month more most much music must ' +
    'name need needed needs never newer next night none north nothing number often only open option options ' +
    'order other others output over paper party piece place plant please point possible power press price ' +
    'print proceed provide provided question quite rather reach ready really reason return right river round ' +
    'running same saturday second seems seven shall short should since small some something sorry sound ' +
    'south space stand start state still story study such sunday sure system table take taken than thank ' +
    'thanks that their them then there these they thing things think third this those though three through ' +
    'thursday time today together total toward tried true trying tuesday under understand unless until ' +
    'update upon used user using usual value very voice want wanted wants watch water wednesday well were ' +
    'what when where whether which while white whole will with within without woman women words world would ' +
    'write wrong wrote years young your yours yourself'
  ).split(' '),
);

const RUN = /[A-Za-z0-9_./\-:]+/g;
const TRAILING = /[./\-:]+$/;
const LEADING = /^[\-:]+/;
const LETTER = /[a-z]/;
const ALPHA = /^[a-z]+$/;

/** The runs of identifier characters of `text`, as written, trimmed of leading `- :` and trailing `. / - :`. */
function* tokens(text: string): Generator<string> {
  for (const match of text.matchAll(RUN)) yield match[0].replace(TRAILING, '').replace(LEADING, '');
}

/** Inside a token: a digit or identifier punctuation, or a capital after its first character (camelCase). */
const SHAPED = /[0-9_./:]|.-|.[A-Z]/;

/**
 * The distinctive identifiers of `text` (lowercased, as {@link distinctiveIdentifiers} gives them) that are shaped
 * like identifiers where they are written: holding a digit, `_ . / :`, an inner `-` or an inner capital
 * (`getUser`, `file.py`, `mia_li_3668`, `ZFA04Y`), not plain words (`installing`, `previously`).
 * @example
 * ```ts
 * identifierShaped('Open src/app.ts, then call getUser(42). Installing.'); // Set { 'src/app.ts', 'getuser' }
 * ```
 */
export function identifierShaped(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of tokens(text)) if (SHAPED.test(raw)) out.add(raw.toLowerCase());
  return out;
}

/**
 * The distinctive identifiers of `text`, lowercased, in first-occurrence order without duplicates.
 * @example
 * ```ts
 * distinctiveIdentifiers('Open src/app.ts, then call getUser(42).'); // ['src/app.ts', 'getuser']
 * ```
 */
export function distinctiveIdentifiers(text: string): string[] {
  const out = new Set<string>();
  for (const raw of tokens(text)) {
    const token = raw.toLowerCase();
    if (token.length < 5 || token.length > 64) continue;
    if (!LETTER.test(token)) continue;
    if (ALPHA.test(token) && COMMON_WORDS.has(token)) continue;
    out.add(token);
  }
  return [...out];
}

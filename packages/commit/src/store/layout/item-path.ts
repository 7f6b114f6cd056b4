/** Top folder of the items in a commit tree. */
export const ITEMS_DIR = 'items';

/**
 * Tree path of an item: `items/<first 5 digits>/<digits 6–7>/<order key>-<item key>.json`.
 * Leaves hold at most 100 positions and the middle level 100 leaves, so a turn rewrites a bounded number
 * of small trees; git sorts `-` before every digit, so tree order is item order.
 */
export function itemPath(orderKey: string, itemKey: string): readonly [string, string, string, string] {
  return [ITEMS_DIR, orderKey.slice(0, 5), orderKey.slice(5, 7), `${orderKey}-${pathSafeKey(itemKey)}.json`];
}

/**
 * Tree path of what a summary folded: its item path without `.json` (`items/<5>/<2>/<order key>-<summary key>`),
 * beside its blob; inside, the folded items are named `<position, 9 digits>-<key>.json` (see `foldedName`).
 */
export function foldPath(orderKey: string, itemKey: string): readonly [string, string, string, string] {
  return [ITEMS_DIR, orderKey.slice(0, 5), orderKey.slice(5, 7), `${orderKey}-${pathSafeKey(itemKey)}`];
}

/** The item key as a file-name fragment: `[A-Za-z0-9._~]` kept, any other UTF-16 unit written `%XXXX`. */
export function pathSafeKey(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const ch = key[i] as string;
    out += /[A-Za-z0-9._~]/.test(ch) && !(i === 0 && ch === '.') ? ch : `%${key.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** The order key of an item file name written by {@link itemPath}. */
export function orderKeyOfFileName(name: string): string {
  const dash = name.indexOf('-');
  return dash < 0 ? name : name.slice(0, dash);
}

import { createHash } from 'node:crypto';
import { GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { ensureDir, io, renameFile, toBytes, unlinkQuietly, writeFileAtomic } from './fs-ops.js';
import { tempOwnerTag } from './lock-record.js';
import { joinIndexes, mergeIndexNames } from './index-join.js';
import { packDir } from './pack-files.js';
import { wholePack } from './pack-index.js';
import { stateOf } from './state.js';

/** Bytes read from a source pack file at a time. */
const CHUNK = 1 << 20;
const HEADER = 12;
const TRAILER = 20;

/** A pack whose entries go into a joined pack: a file of a repository, or bytes in memory; and its index. */
export type PackPart = { readonly from: GitContext; readonly name: string; readonly idx: Buffer } | { readonly pack: Buffer; readonly idx: Buffer };

/**
 * Hands the part's entries (its bytes between header and trailer) to `sink`: a pack in memory at once, a file through
 * `buf` (reused: `sink` is done with a chunk when its promise resolves).
 */
async function streamEntries(part: PackPart, buf: Buffer, sink: (chunk: Uint8Array) => Promise<void>): Promise<void> {
  if ('pack' in part) return sink(part.pack.subarray(HEADER, part.pack.length - TRAILER));
  const loaded = stateOf(part.from).packs.get(part.name)?.pack;
  if (loaded !== undefined) return sink(loaded.subarray(HEADER, loaded.length - TRAILER));
  const path = `${packDir(part.from)}/${part.name}.pack`;
  const handle = await io('read', path, () => part.from.fs.promises.open(path, 'r'));
  try {
    const read = handle.read?.bind(handle);
    if (read === undefined) {
      const whole = toBytes(await io('read', path, () => part.from.fs.promises.readFile(path)));
      return sink(whole.subarray(HEADER, whole.length - TRAILER));
    }
    // the last TRAILER bytes read are held back until more follow: at the end of the file they are the trailer (a
    // chunk is handed on as a view of `buf`, never copied: a copy per chunk is a pack's size in garbage)
    let held = Buffer.alloc(0);
    for (let at = HEADER; ; ) {
      const { bytesRead } = await io('read', path, () => read(buf, 0, buf.length, at));
      if (bytesRead === 0) break;
      at += bytesRead;
      if (bytesRead >= TRAILER) {
        if (held.length > 0) await sink(held);
        if (bytesRead > TRAILER) await sink(buf.subarray(0, bytesRead - TRAILER));
        held = Buffer.from(buf.subarray(bytesRead - TRAILER, bytesRead));
      } else {
        const data = Buffer.concat([held, buf.subarray(0, bytesRead)]);
        const keep = Math.min(TRAILER, data.length);
        if (data.length > keep) await sink(data.subarray(0, data.length - keep));
        held = Buffer.from(data.subarray(data.length - keep));
      }
    }
    if (held.length !== TRAILER) throw new GitIoError('read', path, Object.assign(new Error('the pack is shorter than its header and trailer'), { code: 'EIO' }));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Writes the entries of `parts` into one new pack of `ctx` without decoding an entry (what `git repack --geometric`
 * does with the deltas it reuses): each part's entries are copied as they are, so an `OFS_DELTA` keeps its distance to
 * its base in the same pack and its CRC; the index is rebuilt from the parts' indexes with shifted offsets. The pack
 * is streamed into a temporary file, hashed as it goes, then renamed; memory holds one chunk and the index, never a
 * pack. The parts must not share an object.
 *
 * @returns the new pack's name and index, or null when two parts hold the same object (nothing is written then)
 */
export async function writeJoinedPack(ctx: GitContext, parts: readonly PackPart[]): Promise<{ name: string; idx: Buffer } | null> {
  const idxs = parts.map((p) => p.idx);
  const order = mergeIndexNames(idxs);
  if (order === null) return null;
  const state = stateOf(ctx);
  const dir = packDir(ctx);
  await ensureDir(ctx, dir);
  const temp = `${dir}/tmp_obj_${tempOwnerTag(state.identity)}_${state.tempSuffix()}`;
  const hash = createHash('sha1');
  const header = Buffer.alloc(HEADER);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(order.part.length, 8);
  const shifts: number[] = [];
  let checksum: Buffer;
  try {
    const handle = await ctx.fs.promises.open(temp, 'wx');
    try {
      let offset = 0;
      const write = async (chunk: Uint8Array): Promise<void> => {
        hash.update(chunk);
        await handle.writeFile(chunk); // a file handle writes on from where the last write ended
        offset += chunk.length;
      };
      await write(header);
      const buf = Buffer.allocUnsafe(CHUNK); // every byte handed on was read into it first
      for (const part of parts) {
        shifts.push(offset - HEADER);
        await streamEntries(part, buf, write);
      }
      checksum = hash.digest();
      await handle.writeFile(checksum);
      if (state.fsync) await handle.datasync();
    } finally {
      await handle.close();
    }
    const name = `pack-${checksum.toString('hex')}`;
    await io('rename', `${dir}/${name}.pack`, () => renameFile(ctx, temp, `${dir}/${name}.pack`));
    const idx = joinIndexes(idxs, order, shifts, checksum);
    await writeFileAtomic(ctx, dir, `${dir}/${name}.idx`, idx);
    // its objects are found by the index from now on (not remembered one string each: an import holds 10^5 and more)
    state.packs.set(name, wholePack(name, idx));
    return { name, idx };
  } catch (err) {
    await unlinkQuietly(ctx, temp);
    throw err instanceof GitIoError ? err : new GitIoError('write', temp, err);
  }
}

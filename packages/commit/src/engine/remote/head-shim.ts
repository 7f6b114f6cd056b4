import type { HttpClient } from 'isomorphic-git';

function pkt(text: Buffer): Buffer {
  return Buffer.concat([Buffer.from((text.length + 4).toString(16).padStart(4, '0'), 'latin1'), text]);
}

/** Adds `symref=HEAD:<ref>` to the capabilities of the first ref line of a v1 upload-pack advertisement that has none. */
function withHead(body: Buffer, ref: string): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  let done = false;
  while (at + 4 <= body.length) {
    const len = Number.parseInt(body.subarray(at, at + 4).toString('latin1'), 16);
    if (Number.isNaN(len)) return body;
    if (len < 4) {
      parts.push(body.subarray(at, at + 4));
      at += 4;
      continue;
    }
    const line = body.subarray(at + 4, at + len);
    const nul = line.indexOf(0);
    if (!done && nul >= 0) {
      done = true;
      const caps = line.subarray(nul + 1).toString('latin1');
      if (!/(^| )symref=HEAD:/u.test(caps)) {
        const trimmed = caps.replace(/\n$/u, '');
        parts.push(pkt(Buffer.concat([line.subarray(0, nul + 1), Buffer.from(`${trimmed} symref=HEAD:${ref}\n`, 'latin1')])));
        at += len;
        continue;
      }
    }
    parts.push(body.subarray(at, at + len));
    at += len;
  }
  return Buffer.concat([...parts, body.subarray(at)]);
}

async function* once(bytes: Buffer): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

/**
 * isomorphic-git's fetch wants the remote's HEAD to resolve, but a repository that holds only ctxgit refs (no
 * branch) has an unborn HEAD, which git does not advertise. This client names the fetched ref as HEAD in the
 * advertisement it hands to isomorphic-git; nothing is sent to the server differently.
 */
export function headShim(http: HttpClient, ref: string): HttpClient {
  return {
    request: async (req) => {
      const res = await http.request(req);
      if (!/\/info\/refs\?service=git-upload-pack$/u.test(req.url) || res.body === undefined || res.statusCode !== 200) return res;
      const chunks: Uint8Array[] = [];
      for await (const c of res.body) chunks.push(c);
      return { ...res, body: once(withHead(Buffer.concat(chunks), ref)) };
    },
  };
}

import { ObjectTypeError } from '../../../git/errors.js';
import { hasObject } from '../../../git/has-object.js';
import { listRefs } from '../../../git/list-refs.js';
import { readBlob } from '../../../git/read-blob.js';
import { readCommitObject } from '../../../git/read-commit-object.js';
import { readRef } from '../../../git/read-ref.js';
import { readImportMarker } from '../../import-marker.js';
import { IMPORTS_PREFIX, SESSIONS_PREFIX, sessionOfRefComponent, VERIFIED_REF } from '../../../store/refs.js';
import type { CommitStart } from './commit-start.js';
import type { DagModel } from './check-dag.js';
import type { Verifier } from './verifier.js';
import { guard, isRecord, parseJson, report } from './verifier.js';
import { entryOf } from './walk-tree.js';

/** The ref {@link verifyRepo} records its token in. */
export { VERIFIED_REF } from '../../../store/refs.js';

/** An import marker: the import of its session started and did not finish; says what resumes it. */
async function reportImport(v: Verifier, ref: string, oid: string): Promise<void> {
  const marker = await readImportMarker(v.git, oid).catch(() => undefined);
  const session = sessionOfRefComponent(ref.slice(IMPORTS_PREFIX.length));
  if (marker === undefined || marker.session !== session) {
    report(v, 'E_VERIFY_REF_WRONG_TYPE', ref, `not an import marker of session ${JSON.stringify(session)}`);
    return;
  }
  report(v, 'E_VERIFY_IMPORT_INCOMPLETE', ref, `the import of session ${JSON.stringify(session)} did not finish (it was killed or failed); run the same command again to resume it: ${marker.resume}`, 'warning');
}

/** Every ref resolves to an existing object; ctxgit's refs to commits of the right kind. Returns where to start the commit walk. */
export async function checkRefs(v: Verifier, dag: DagModel): Promise<CommitStart[]> {
  const starts: CommitStart[] = [];
  const refs = (await guard(v, 'refs/', 'cannot list refs', () => listRefs(v.git, 'refs/'))) ?? [];
  for (const ref of refs) {
    v.counts.refs++;
    let oid: string | null;
    try {
      oid = await readRef(v.git, ref);
    } catch (err) {
      report(v, 'E_VERIFY_REF_UNREADABLE', ref, err instanceof Error ? err.message : String(err));
      continue;
    }
    if (oid === null) continue;
    if (!(await guard(v, ref, 'object lookup failed', () => hasObject(v.git, oid)))) {
      report(v, 'E_VERIFY_REF_MISSING_OBJECT', ref, `points at ${oid}, which is not in the repository`);
      continue;
    }
    if (!ref.startsWith('refs/ctxgit/')) continue;
    let commit;
    try {
      commit = await readCommitObject(v.git, oid);
    } catch (err) {
      report(v, err instanceof ObjectTypeError ? 'E_VERIFY_REF_WRONG_TYPE' : 'E_VERIFY_OBJECT_CORRUPT', ref, err instanceof Error ? err.message : String(err));
      continue;
    }
    if (ref === VERIFIED_REF) continue; // checked by the append-only check
    if (ref.startsWith(IMPORTS_PREFIX)) {
      await reportImport(v, ref, oid);
      continue;
    }
    const rest = ref.startsWith(SESSIONS_PREFIX) ? ref.slice(SESSIONS_PREFIX.length).split('/') : [];
    const session = sessionOfRefComponent(rest[0] ?? '');
    const kind = rest.slice(1);
    if (kind.length === 1 && kind[0] === 'dag') continue; // checked by checkDag
    const known = rest.length > 0 && kind.length === 1 && ['context', 'merged', 'config', 'tools'].includes(kind[0] as string);
    if (!known) {
      report(v, 'E_VERIFY_UNKNOWN_REF', ref, 'not a ref ctxgit writes', 'warning');
      continue;
    }
    if (!dag.sessions.has(session)) report(v, 'E_VERIFY_REF_MISMATCH', ref, `session ${JSON.stringify(session)} has no record in the DAG`);
    if (kind[0] === 'tools') continue; // the session's tool catalogue: a commit of a plain tree of tool blobs
    if (kind[0] === 'config') {
      const entry = await entryOf(v, oid, commit.tree, 'session.json');
      const bytes = entry === undefined ? undefined : await guard(v, `${oid}:session.json`, 'unreadable blob', () => readBlob(v.git, entry.oid));
      const parsed = bytes === undefined ? undefined : parseJson(bytes);
      const cfg = parsed !== undefined && 'value' in parsed ? parsed.value : undefined;
      if (!isRecord(cfg) || cfg['format'] !== 1 || cfg['session'] !== session || typeof cfg['model'] !== 'string') {
        report(v, 'E_VERIFY_CONFIG_INVALID', ref, `not a config commit of session ${JSON.stringify(session)}`);
      }
      continue;
    }
    starts.push({ ref, oid });
  }
  return starts;
}

/**
 * Every S3 object key of the issues' files (docs/data-model.md "Files"), built from the bucket's two
 * prefixes (contracts/manifest.ts `bucketPrefixes`, which the grants and the lifecycle rule use too):
 *   pending/<projectId>/<kind>/<uuid>.<ext>   a visitor's upload, until the report copies it (1 day)
 *   p/<projectId>/s/<name>                    screenshots, videos and page snapshots of its issues
 *   p/<projectId>/f/<name>                    files
 *   p/<projectId>/v1/<name>                   the viewable copy of a snapshot (snapshot-view.ts)
 * Everything under the project's prefix goes with the project (projects/project.ts `projectFilesPrefix`).
 */
import { type UploadKind, uploadKinds } from '#contracts/intake';
import { bucketPrefixes } from '#contracts/manifest';
import { projectFilesPrefix } from '../projects/project';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const escaped = (prefix: string) => prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A pending key: `[, projectId, kind, id, ext]`. */
export const pendingKeyPattern = new RegExp(
  `^${escaped(bucketPrefixes.pending)}(${uuid})/(${uploadKinds.join('|')})/(${uuid})\\.([a-z0-9]{2,5})$`,
);

export const pendingKey = (projectId: string, kind: UploadKind, id: string, ext: string) =>
  `${bucketPrefixes.pending}${projectId}/${kind}/${id}.${ext}`;

/** Where a stored object of `kind` named `name` is kept: files apart from everything else. */
export const storedKey = (projectId: string, kind: UploadKind, name: string) =>
  `${projectFilesPrefix(projectId)}${kind === 'file' ? 'f' : 's'}/${name}`;

/**
 * The viewable copy of a snapshot beside its project's objects, so deleting the project deletes it. `v1`
 * names the transform: a later change of it writes new copies instead of serving stale ones.
 */
export const snapshotViewKey = (projectId: string, name: string) =>
  `${projectFilesPrefix(projectId)}v1/${name}`;

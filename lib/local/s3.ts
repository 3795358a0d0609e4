/** S3 stand-in: s3rver, persisting to SNAG_DATA_DIR/s3, with the uploads bucket and its CORS rules. */
import { mkdir, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import S3rver from 's3rver';
import { uploads } from '../resources';

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The bucket's CORS rules (lib/resources.ts) in the XML of S3's PutBucketCors, which s3rver reads. */
export function corsXml(): string {
  const c = uploads.cors;
  const rule = [
    ...c.allowedOrigins.map((o) => `<AllowedOrigin>${escapeXml(o)}</AllowedOrigin>`),
    ...c.allowedMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`),
    ...c.allowedHeaders.map((h) => `<AllowedHeader>${escapeXml(h)}</AllowedHeader>`),
    `<MaxAgeSeconds>${c.maxAgeSeconds}</MaxAgeSeconds>`,
  ].join('');
  return `<CORSConfiguration><CORSRule>${rule}</CORSRule></CORSConfiguration>`;
}

export async function startS3(dataDir: string, bucket: string): Promise<LocalS3> {
  const directory = resolve(dataDir, 's3');
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    // Creating a bucket that exists keeps its objects and only rewrites its configuration.
    configureBuckets: [{ name: bucket, configs: [corsXml()] }],
  });
  keepDirectories(server);
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      // SDK clients keep connections alive; close them so close() does not wait for their timeout.
      server.httpServer?.closeAllConnections();
      await server.close();
    },
  };
}

/**
 * s3rver removes a key's directories once they are empty after a delete, which races an upload into the
 * same prefix (it makes the directory, then opens the file): the upload's write fails with ENOENT on an
 * unhandled stream and the whole process exits. Concurrent reports to one project do exactly this (the
 * intake deletes pending objects while other visitors upload); the load bench found it. Deleting only
 * the object's files keeps the directories, which list as nothing.
 */
function keepDirectories(server: S3rver) {
  const store = server.store;
  store.deleteObject = async (bucket, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((r) => store.getResourcePath(bucket, key, r));
    await Promise.all(
      files.map((f) =>
        unlink(f).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        }),
      ),
    );
  };
}

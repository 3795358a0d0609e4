/** The part of s3rver 3.x (plain JavaScript, no bundled types) that lib/local/s3.ts uses. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    httpServer?: import('node:http').Server;
    /** The filesystem store (lib/stores/filesystem.js); s3.ts replaces its deleteObject. */
    store: {
      deleteObject(bucket: string, key: string): Promise<void>;
      getResourcePath(bucket: string, key: string, resource: string): string;
    };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

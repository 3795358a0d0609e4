/**
 * The stand-ins accept any credentials; these are s3rver's defaults, the same that functions/runtime/aws.ts
 * uses, so every client signs the same way and the SDK never searches the machine for real ones.
 */
export const localCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

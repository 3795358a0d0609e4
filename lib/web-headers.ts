/**
 * The dashboard's Content-Security-Policy, one definition for CloudFront (lib/stacks/web.ts, a response
 * headers policy) and the local stack (lib/local/static.ts), so the browser tests run the dashboard under
 * the policy production sends.
 *
 * Scripts come from the dashboard's own origin only, never inline; Google's sign-in script and frame
 * only when Google sign-in is configured. Images, media and fetches may also reach the uploads bucket:
 * downloads redirect there (presigned GETs). Styles allow inline: Mantine writes its CSS variables into a
 * <style> element. Page snapshots are frames of the uploads bucket's origin (sandboxed, scripts off;
 * issue 19): a frame of another origin does not inherit this policy, so the customer's images and fonts
 * load in it as they did for the visitor. Nothing may frame the dashboard.
 */
export interface DashboardPolicyOptions {
  /** Origin of the uploads bucket (https://<bucket>.s3.<region>.amazonaws.com; the S3 stand-in locally). */
  uploadsOrigin: string;
  /** Google sign-in is configured (its client script, frame and calls). */
  google: boolean;
}

const googleOrigin = 'https://accounts.google.com';

export function dashboardCsp({ uploadsOrigin, google }: DashboardPolicyOptions): string {
  const g = (path: string) => (google ? [`${googleOrigin}${path}`] : []);
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...g('/gsi/client')]],
    ['style-src', ["'self'", "'unsafe-inline'", ...g('/gsi/style')]],
    ['img-src', ["'self'", 'data:', 'blob:', uploadsOrigin]],
    ['media-src', ["'self'", 'blob:', uploadsOrigin]],
    ['connect-src', ["'self'", uploadsOrigin, ...g('/gsi/')]],
    // The proof-of-work solver (altcha) runs in workers it creates from data: URLs.
    ['worker-src', ["'self'", 'blob:', 'data:']],
    // Page snapshots (web/src/issues/SnapshotFrame.tsx), served by presigned GETs from the bucket.
    ['frame-src', [uploadsOrigin, ...g('/gsi/')]],
    ['font-src', ["'self'", 'data:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

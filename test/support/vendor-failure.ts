/** What the vendor client tests share (test/integration/*-vendor.test.ts, vendor-clients.test.ts). */
import { expect } from 'vitest';
import { VendorError } from '../../functions/integrations/vendors/http';

/** The VendorError `p` rejects with (the test fails if it resolves or rejects with anything else). */
export async function failure(p: Promise<unknown>): Promise<VendorError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VendorError);
  return err as VendorError;
}

/** The inbound hook's calls (issue 24): its URL (no secret) loaded, and reveal, regenerate and register. */
import type { HookAnswer, TrackerVendor } from '#contracts/sync';
import { api } from '../api';
import { useEndpoint } from '../api/swr';

type Vendor = TrackerVendor;

export const useHook = (vendor: Vendor, projectId: string) =>
  useEndpoint('hooks.show', { params: { vendor, siteId: projectId } });

const calls = { reveal: 'hooks.reveal', regenerate: 'hooks.regenerate', register: 'hooks.register' } as const;

export function hookCall(action: keyof typeof calls, vendor: Vendor, projectId: string): Promise<HookAnswer> {
  return api.call(calls[action], { params: { vendor, siteId: projectId } });
}

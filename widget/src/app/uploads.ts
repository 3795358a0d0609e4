/**
 * Checks made before anything is uploaded, against the limits the server enforces
 * (functions/contracts/intake.ts `uploadRules`), so a visitor learns at once why a 30 MB file cannot go,
 * instead of after a failed upload.
 */
import { extensionOf, type UploadKind, uploadRules } from '#contracts/intake';
import type { MessageKey } from '../i18n';

const MB = 1024 * 1024;

/** MIME type by file extension, for files the browser gives no type (e.g. `.csv` on some systems). */
const typeByExtension: Record<string, string> = { jpeg: 'image/jpeg' };
for (const [type, ext] of Object.entries(extensionOf)) typeByExtension[ext] ??= type;

/** The MIME type sent for a file: the browser's, or the one its extension names. */
export function fileType(file: { name: string; type: string }): string {
  if (file.type) return file.type.toLowerCase();
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return (ext && typeByExtension[ext]) || '';
}

export interface Refusal {
  key: MessageKey;
  vars: Record<string, string | number>;
}

/** Why a blob of `kind` cannot be uploaded, or null when it can. */
export function refuseUpload(
  kind: UploadKind,
  item: { name: string; size: number; type: string },
): Refusal | null {
  const rule = uploadRules[kind];
  const vars = { name: item.name, max: Math.round(rule.maxBytes / MB) };
  if (!rule.types.includes(fileType(item))) return { key: 'fileTypeNotAllowed', vars };
  if (item.size === 0) return { key: 'fileEmpty', vars };
  if (item.size > rule.maxBytes) return { key: 'fileTooLarge', vars };
  return null;
}

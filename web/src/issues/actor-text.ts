/**
 * Who did something, as the timeline names them (activity lines and comment authors alike): the name as it
 * was then, "Someone" when it is empty, and for a change made through an API token the creator followed by
 * the token ("Ada Lovelace via API token CI", issue 25), for a member's action through the browser extension
 * "Ada Lovelace via extension" (issue 34); a member who left the team as "former member" in the reader's
 * language (issue 35, decision DR-8).
 */
import type { TFunction } from 'i18next';
import { FORMER_MEMBER } from '#contracts/triage';

export function actorText(
  t: TFunction,
  name: string,
  via: string | null | undefined,
  extension = false,
): string {
  const who =
    name === FORMER_MEMBER
      ? t('triageDetail.activity.formerMember')
      : name.trim() || t('triageDetail.activity.someone');
  if (extension) return t('triageDetail.activity.viaExtension', { actor: who });
  return via ? t('triageDetail.activity.viaToken', { actor: who, token: via }) : who;
}

/**
 * Profile, delete (SPEC.md sections 4 and 8): DELETE /client/profile behind a modal where typing the word
 * "confirm" enables Delete; afterwards the marketing site (signed out of Google too, for a Google account).
 */
import { useTranslation } from 'react-i18next';
import { leaveToMarketingSite } from '../api/session';
import { DeleteSection } from '../components/DeleteSection';
import { errorText } from '../i18n';
import { deleteProfile } from './data';

export function DeleteProfile() {
  const { t } = useTranslation();
  return (
    <DeleteSection
      labelId="profile-delete"
      title={t('profileEdit.delete.title')}
      description={t('profileEdit.delete.description')}
      button={t('profileEdit.delete.button')}
      modalTitle={t('profileEdit.delete.modalTitle')}
      modalBody={t('profileEdit.delete.modalBody')}
      failedText={errorText('SYSTEM_ERROR', 'profileDelete')}
      onConfirm={async () => {
        const result = await deleteProfile();
        await leaveToMarketingSite(result?.google === true);
      }}
    />
  );
}

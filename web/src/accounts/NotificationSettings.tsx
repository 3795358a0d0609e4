/**
 * Profile → Email notifications (issue 23): mails about new issues (off, each at once, or a daily digest),
 * when an issue is assigned to me, when someone mentions me, and comments on issues assigned to me. They
 * hold for every team the account works in. Each change saves at once (PUT /client/notifications, the
 * whole set), with a saved or failed state beside the title.
 */
import { Radio, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIssueMails, type NotificationSettings as Settings } from '#contracts/triage';
import { errorCodeOf } from '../api';
import { FieldState, type SaveState } from '../components/FieldState';
import { Section } from '../components/Section';
import { saveNotificationSettings, useNotificationSettings } from './data';

export function NotificationSettings() {
  const { t } = useTranslation();
  const { data } = useNotificationSettings();
  const [save, setSave] = useState<SaveState>({ state: 'idle' });
  const settings = data?.settings;

  async function change(next: Settings) {
    setSave({ state: 'saving' });
    try {
      await saveNotificationSettings(next);
      setSave({ state: 'saved' });
    } catch (error) {
      setSave({ state: 'failed', code: errorCodeOf(error) });
    }
  }

  return (
    <Section
      title={t('notifications.title')}
      labelId="notification-settings"
      description={t('notifications.description')}
      actions={<FieldState id="notification-state" save={save} />}
    >
      {settings && (
        <Stack gap="lg" data-testid="notification-settings">
          <Radio.Group
            label={t('notifications.newIssue')}
            description={t('notifications.newIssueHint')}
            value={settings.newIssue}
            onChange={(v) => void change({ ...settings, newIssue: v as Settings['newIssue'] })}
          >
            <Stack gap="xs" mt="xs">
              {newIssueMails.map((m) => (
                <Radio key={m} value={m} label={t(`notifications.newIssueOptions.${m}`)} />
              ))}
            </Stack>
          </Radio.Group>
          {(['assigned', 'mentioned', 'comments'] as const).map((name) => (
            <Switch
              key={name}
              size="md"
              label={t(`notifications.${name}`)}
              description={name === 'comments' ? t('notifications.commentsHint') : undefined}
              checked={settings[name]}
              onChange={(e) => void change({ ...settings, [name]: e.currentTarget.checked })}
            />
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** The reporter's address Team → Privacy looks up. */
import { Button, Group, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  email: string;
  onEmail: (email: string) => void;
  busy: boolean;
  narrow: boolean | undefined;
  onSubmit: (event: FormEvent) => void;
}

export function PersonLookupForm({ email, onEmail, busy, narrow, onSubmit }: Props) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="email"
          required
          label={t('teams.privacy.email')}
          description={t('teams.privacy.emailHelp')}
          value={email}
          onChange={(e) => onEmail(e.currentTarget.value)}
          w={narrow ? '100%' : 360}
          data-testid="privacy-email"
        />
        <Button type="submit" loading={busy} data-testid="privacy-find">
          {t('teams.privacy.find')}
        </Button>
      </Group>
    </form>
  );
}

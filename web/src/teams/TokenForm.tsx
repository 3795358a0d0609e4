/**
 * Team settings, API tokens (issue 25): a new token's name, scopes and lifetime. The created token is shown
 * once, with a copy button; the server keeps only its hash, so it cannot be shown again.
 */
import { Alert, Button, Checkbox, Code, CopyButton, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { type TokenScope, tokenScopes } from '#contracts/tokens';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { errorText } from '../i18n';
import { createToken } from './data';
import { defaultScopes, type ExpiryChoice, expiresInDays, expiryChoices } from './token-model';

/** i18next reads ':' as a namespace separator: the texts are keyed with '_'. */
const scopeKey = {
  'projects:read': 'projects_read',
  'issues:read': 'issues_read',
  'issues:write': 'issues_write',
  'comments:write': 'comments_write',
  'issues:create': 'issues_create',
} as const satisfies Record<TokenScope, string>;

interface Values {
  name: string;
  scopes: TokenScope[];
  expiry: ExpiryChoice;
}

export function TokenForm({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', scopes: defaultScopes, expiry: '90' },
    validate: {
      name: (v) => (v.trim() ? null : t('teams.tokens.nameRequired')),
      scopes: (v) => (v.length ? null : t('teams.tokens.scopesRequired')),
    },
  });

  async function submit(values: Values) {
    setSaving(true);
    setErrorCode(null);
    try {
      const days = expiresInDays(values.expiry);
      const { token, entry } = await createToken(teamId, {
        name: values.name.trim(),
        scopes: values.scopes,
        ...(days ? { expiresInDays: days } : {}),
      });
      setShown({ name: entry.name, token });
      form.reset();
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('teams.tokens.createTitle')}
      description={t('teams.tokens.createHint')}
      labelId="token-create"
    >
      <Stack gap="md">
        {shown && (
          <Alert
            color="green"
            title={t('teams.tokens.createdTitle', { name: shown.name })}
            data-testid="token-shown"
          >
            <Stack gap="xs">
              {t('teams.tokens.createdHint')}
              <Code
                block
                data-testid="token-value"
                style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              >
                {shown.token}
              </Code>
              <Group gap="xs">
                <CopyButton value={shown.token}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant={copied ? 'filled' : 'default'} onClick={copy}>
                      {copied ? t('teams.tokens.copied') : t('teams.tokens.copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button size="xs" variant="subtle" onClick={() => setShown(null)}>
                  {t('teams.tokens.done')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('teams.tokens.name')}
              maxLength={60}
              required
              {...form.getInputProps('name')}
            />
            <Checkbox.Group label={t('teams.tokens.scopes')} required {...form.getInputProps('scopes')}>
              <Stack gap={6} mt={6}>
                {tokenScopes.map((scope) => (
                  <Checkbox key={scope} value={scope} label={t(`teams.tokens.scope.${scopeKey[scope]}`)} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Select
              label={t('teams.tokens.expiry')}
              allowDeselect={false}
              data={expiryChoices.map((c) => ({ value: c, label: t(`teams.tokens.expiryChoice.${c}`) }))}
              {...form.getInputProps('expiry')}
            />
            {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
            <Group>
              <Button type="submit" loading={saving}>
                {t('teams.tokens.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Section>
  );
}

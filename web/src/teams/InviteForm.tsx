/**
 * /profile/team, the invite form (issue 22): an address, a role (ADMIN, MEMBER or GUEST; never OWNER) and,
 * for a GUEST, the projects they may see. Refusals show the catalogue's message (SEAT_LIMIT, ...).
 */
import { Button, Group, MultiSelect, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { type AssignableRole, assignableRoles, invitationSchema } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { invite } from './data';
import type { ProjectOption } from './TeamGuests';

type Values = {
  email: string;
  role: AssignableRole;
  projects: string[];
};

/** What is sent: the trimmed address, and projects only for a GUEST (the form keeps them while the role changes). */
const bodyOf = (v: Values) => ({
  email: v.email.trim(),
  role: v.role,
  ...(v.role === 'GUEST' ? { projects: v.projects } : {}),
});

export function InviteForm({ teamId, projects }: { teamId: string; projects: ProjectOption[] }) {
  const { t } = useTranslation();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [sending, setSending] = useState(false);
  const form = useForm<Values>({
    initialValues: { email: '', role: 'MEMBER', projects: [] },
    // The API's own rule (an address; a GUEST names projects, the others none), on what would be sent.
    validate: (values) => schemaValidator(invitationSchema)(bodyOf(values)),
  });
  const guest = form.values.role === 'GUEST';

  async function send(values: Values) {
    setSending(true);
    setErrorCode(null);
    const email = values.email.trim();
    try {
      await invite(teamId, bodyOf(values));
      toastSuccess(t('teams.invite.sent', { email }));
      form.reset();
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <Section
      title={t('teams.invite.title')}
      description={t('teams.invite.description')}
      labelId="team-invite"
    >
      <form onSubmit={form.onSubmit(send)} noValidate data-testid="invite-form">
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              type="email"
              label={t('teams.invite.email')}
              autoComplete="off"
              {...form.getInputProps('email')}
            />
            <Select
              label={t('teams.invite.role')}
              data={assignableRoles.map((role) => ({ value: role, label: t(`teams.roles.${role}`) }))}
              allowDeselect={false}
              {...form.getInputProps('role')}
            />
          </SimpleGrid>
          {guest && (
            <MultiSelect
              label={t('teams.invite.projects')}
              description={t('teams.invite.projectsHint')}
              data={projects}
              maxValues={25}
              {...form.getInputProps('projects')}
            />
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={sending}>
              {t('teams.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

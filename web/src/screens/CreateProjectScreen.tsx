/**
 * /profile/create/project (SPEC.md sections 2 and 5): project name and domain, validated by the shared
 * schema; afterwards the new project's installation screen. Refusals read 'It is not possible to create
 * a project' (plan limit and server faults); a domain the widget could never match marks the field.
 * At the plan's project allowance there is no form to fill in vain: the screen shows the allowance and
 * the way to more (billing), or back (docs/decisions-web.md "Projects over the allowance").
 */
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { projectSchema } from '#contracts/schemas';
import { useProfile } from '../accounts/data';
import { ApiError, errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { apiFieldErrors, schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths } from '../paths';
import { AllowanceReached } from '../projects/AllowanceReached';
import { createProject, reloadProjects, useProjects } from '../projects/data';
import { belowAllowance } from '../projects/model';

type Values = { name: string; url: string };

const createSchema = projectSchema.pick({ name: true, url: true });

export default function CreateProjectScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.createProject'));
  const navigate = useNavigate();
  const { data: list, isValidating } = useProjects();
  const { data: profile } = useProfile();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  // A cached list may be out of date; the allowance is judged once it has been reloaded (later focus
  // reloads do not swap the screen back and forth).
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (list && !isValidating) setSettled(true);
  }, [list, isValidating]);
  const form = useForm<Values>({
    initialValues: { name: '', url: '' },
    validate: schemaValidator<Values>(createSchema),
    validateInputOnBlur: true,
  });

  if (!list || !profile || !settled) return <PageLoader />;
  const allowed = profile.settings?.projects;
  // Not while a create is under way or done: the reloaded list already counts the new project while
  // the screen is on its way to it, and the notice would flash (docs/decisions-web.md).
  const atLimit = !saving && !belowAllowance(allowed, list.websites.length);

  async function submit(values: Values) {
    setSaving(true);
    setErrorCode(null);
    try {
      const id = await createProject({ name: values.name.trim(), url: values.url.trim() });
      navigate(paths.configuration(id, 'installation'));
    } catch (error) {
      const code = errorCodeOf(error);
      const fields =
        error instanceof ApiError ? apiFieldErrors(error.fields, undefined, error.details.expected) : {};
      if (code === 'INVALID_DOMAIN') form.setFieldError('url', errorText('INVALID_DOMAIN'));
      else if (Object.keys(fields).length) form.setErrors(fields);
      else setErrorCode(code);
      // Refused by the plan: the list is stale (another tab made a project), and the notice should show.
      if (code === 'PLAN_LIMIT') void reloadProjects();
      setSaving(false);
    }
  }

  return (
    <Stack gap="xl" maw={640} mx="auto">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('createProject.title')}
        </Title>
        <Text c="dimmed">{t('createProject.subtitle')}</Text>
      </Stack>
      {errorCode && <ErrorAlert>{errorText(errorCode, 'projectCreate')}</ErrorAlert>}
      {atLimit && typeof allowed === 'number' ? (
        <AllowanceReached allowed={allowed} />
      ) : (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <form onSubmit={form.onSubmit(submit)} noValidate>
            <Stack gap="md">
              <TextInput
                label={t('createProject.name')}
                placeholder={t('createProject.namePlaceholder')}
                maxLength={limits.projectNameMax}
                required
                data-autofocus
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <TextInput
                label={t('createProject.url')}
                placeholder={t('createProject.urlPlaceholder')}
                description={t('createProject.urlHint')}
                maxLength={limits.projectUrlMax}
                autoCapitalize="off"
                spellCheck={false}
                inputMode="url"
                required
                key={form.key('url')}
                {...form.getInputProps('url')}
              />
              <Group justify="flex-end" gap="sm" mt="xs">
                <Button variant="default" component={Link} to={paths.profile}>
                  {t('createProject.cancel')}
                </Button>
                <Button type="submit" loading={saving}>
                  {t('createProject.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}

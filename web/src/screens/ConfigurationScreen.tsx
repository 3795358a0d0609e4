/**
 * /profile/configuration/{id}/{installation|custom_fields|general} (SPEC.md sections 2, 4 and 5):
 * the install snippet with the domain rule and how to verify it, up to 3 custom fields, and the general
 * settings with the project deletion. An unknown or foreign project goes back to /profile.
 */
import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCheck, IconCopy, IconExternalLink, IconFlask } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { customFieldSchema, projectSchema } from '#contracts/schemas';
import type { ProjectDetail } from '../api/types';
import { type ConfigurationSection, configurationSections, paths } from '../app/paths';
import { DeleteSection } from '../components/DeleteSection';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { PairRows } from '../components/PairRows';
import { Section } from '../components/Section';
import { SectionTabs } from '../components/SectionTabs';
import { toastSuccess } from '../components/toast';
import { useSwitches } from '../forms/switches';
import { schemaValidator, showSaveError } from '../forms/validate';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { errorText } from '../i18n';
import { deleteProject, saveProject, useProject } from '../projects/hooks';
import { domainRule, installSnippet, verifyUrl } from '../projects/model';
import { ProjectHeader } from '../projects/ProjectHeader';

type Website = ProjectDetail['website'];

export default function ConfigurationScreen({ section }: { section: ConfigurationSection }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { data } = useProject(id);
  useDocumentTitle(`${t('screens.configuration')} · ${t(`configuration.${section}`)}`);
  if (!data || !id) return <PageLoader />;
  const website = data.website;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <ProjectHeader project={website} title={t('screens.configuration')} />
      <SectionTabs
        value={section}
        sections={configurationSections}
        label={t('project.sections')}
        labelOf={(name) => t(`configuration.${name}`)}
        onChange={(name) => navigate(paths.configuration(id, name))}
        keepMounted={false}
      />
      {section === 'installation' && <Installation website={website} />}
      {section === 'custom_fields' && <CustomFields key={website.uuid} website={website} />}
      {section === 'general' && <General key={website.uuid} website={website} />}
    </Stack>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} aria-label={title}>
      <Group align="flex-start" gap="md" wrap="nowrap">
        <ThemeIcon size={32} radius="xl" variant="light" fw={700} style={{ flex: 'none' }}>
          {n}
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
          <Text fw={650} size="lg" mt={2}>
            {title}
          </Text>
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}

function Installation({ website }: { website: Website }) {
  const { t } = useTranslation();
  const snippet = installSnippet(window.location.origin, website.uuid);
  const rule = domainRule(website.domain, website.data.widgetDomainWildcard);
  const testMode = website.activeParam === 1;
  const url = verifyUrl(website.domain, testMode);
  const strong = { strong: <strong /> };

  return (
    <Stack gap="md">
      {website.active !== 1 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          {t('installation.inactive')}{' '}
          <Anchor component={Link} to={paths.configuration(website.uuid, 'general')} fw={600} inherit>
            {t('installation.toGeneral')}
          </Anchor>
        </Alert>
      )}
      <Step n={1} title={t('installation.snippetTitle')}>
        <Text size="sm" c="dimmed">
          {t('installation.snippetHint')}
        </Text>
        <Stack gap={6}>
          <Group justify="space-between" gap="sm">
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" style={{ letterSpacing: '.04em' }}>
              HTML
            </Text>
            <CopyButton value={snippet} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant={copied ? 'filled' : 'default'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                  onClick={copy}
                >
                  {copied ? t('installation.copied') : t('installation.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code
            block
            aria-label={t('installation.snippetLabel')}
            data-testid="install-snippet"
            fz="sm"
            p="md"
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', borderRadius: 10 }}
          >
            {snippet}
          </Code>
        </Stack>
      </Step>
      <Step n={2} title={t('installation.domainTitle')}>
        <Text data-testid="domain-rule">
          {rule.kind === 'any' ? (
            t('installation.domainAny')
          ) : rule.kind === 'exact' ? (
            <Trans i18nKey="installation.domainExact" values={{ host: rule.host }} components={strong} />
          ) : (
            <Trans
              i18nKey="installation.domainSubdomains"
              values={{ host: rule.host, example: rule.example }}
              components={strong}
            />
          )}
        </Text>
        {rule.kind !== 'any' && (
          <Text size="sm" c="dimmed">
            {t('installation.domainMismatch')}
          </Text>
        )}
      </Step>
      <Step n={3} title={t('installation.verifyTitle')}>
        <Text>
          {t('installation.verify', {
            text: website.data.widgetText,
            position: t(`widget.where.${website.data.widgetPosition}`),
          })}
        </Text>
        {testMode && (
          <Alert color="yellow" variant="light" icon={<IconFlask size={18} />}>
            {t('installation.verifyTestMode', { url })}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            component="a"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            variant="light"
            rightSection={<IconExternalLink size={16} />}
          >
            {t('installation.openSite')}
          </Button>
          <Text size="sm" c="dimmed">
            {t('installation.delay')}
          </Text>
        </Group>
      </Step>
    </Stack>
  );
}

type FieldsValues = { customFields: { name: string; selector: string }[] };

function CustomFields({ website }: { website: Website }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<FieldsValues>({
    initialValues: { customFields: website.data.customFields },
    validate: {
      customFields: {
        name: (value) =>
          value.trim() === ''
            ? t('validation.required')
            : customFieldSchema.shape.name.safeParse(value).success
              ? null
              : t('validation.invalid'),
        selector: (value) =>
          value.trim() === ''
            ? t('validation.required')
            : customFieldSchema.shape.selector.safeParse(value).success
              ? null
              : t('customFields.selectorInvalid'),
      },
    },
    validateInputOnBlur: true,
  });
  const max = limits.projectCustomFields;

  async function save(values: FieldsValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const customFields = values.customFields.map((f) => ({
        name: f.name.trim(),
        selector: f.selector.trim(),
      }));
      const saved = await saveProject(website.uuid, { data: { customFields } });
      form.setInitialValues({ customFields: saved.website.data.customFields });
      form.setValues({ customFields: saved.website.data.customFields });
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('customFields.title')}
      description={t('customFields.description')}
      labelId="custom-fields"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
          <PairRows
            form={form}
            field="customFields"
            max={max}
            testId="custom-field-row"
            columns={[
              {
                key: 'name',
                label: t('customFields.name'),
                placeholder: t('customFields.namePlaceholder'),
                maxLength: 50,
              },
              {
                key: 'selector',
                label: t('customFields.selector'),
                placeholder: t('customFields.selectorPlaceholder'),
                maxLength: 100,
                code: true,
              },
            ]}
            texts={{
              add: t('customFields.add'),
              empty: t('customFields.empty'),
              remove: (index) => t('customFields.remove', { index }),
              limit: t('customFields.limit', { count: max }),
            }}
            actions={
              <Button type="submit" loading={saving}>
                {t('project.save')}
              </Button>
            }
          />
        </Stack>
      </form>
    </Section>
  );
}

type GeneralValues = { name: string; url: string; active: boolean; activeParam: boolean; wildcard: boolean };

function generalValues(website: Website): GeneralValues {
  return {
    name: website.name,
    url: website.url,
    active: website.active === 1,
    activeParam: website.activeParam === 1,
    wildcard: website.data.widgetDomainWildcard,
  };
}

const nameUrlValidator = schemaValidator<{ name: string; url: string }>(
  projectSchema.pick({ name: true, url: true }),
);

function General({ website }: { website: Website }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<GeneralValues>({
    initialValues: generalValues(website),
    validate: (values) => nameUrlValidator({ name: values.name, url: values.url }),
    validateInputOnBlur: ['name', 'url'],
  });

  async function save(values: GeneralValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const saved = await saveProject(website.uuid, {
        name: values.name.trim(),
        url: values.url.trim(),
        active: values.active ? 1 : 0,
        activeParam: values.activeParam ? 1 : 0,
        data: { widgetDomainWildcard: values.wildcard },
      });
      const next = generalValues(saved.website);
      form.setInitialValues(next);
      form.setValues(next);
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  const toggle = useSwitches(form);

  return (
    <Stack gap="lg">
      <Section title={t('general.title')} description={t('general.description')} labelId="project-general">
        <form onSubmit={form.onSubmit(save)} noValidate>
          <Stack gap="lg">
            {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
            {/* Side by side from tablet width; one full-width column on phones. */}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={t('general.name')}
                maxLength={limits.projectNameMax}
                required
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <TextInput
                label={t('general.url')}
                description={t('general.urlHint')}
                maxLength={limits.projectUrlMax}
                autoCapitalize="off"
                spellCheck={false}
                required
                key={form.key('url')}
                {...form.getInputProps('url')}
              />
            </SimpleGrid>
            <Stack gap="md">
              {toggle('active', t('general.active'), t('general.activeHint'))}
              {toggle('activeParam', t('general.testMode'), t('general.testModeHint'))}
              {toggle('wildcard', t('general.wildcard'), t('general.wildcardHint'))}
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                {t('project.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
      <DeleteSection
        labelId="project-delete"
        title={t('general.deleteTitle')}
        description={t('general.deleteDescription')}
        button={t('general.deleteButton')}
        modalTitle={t('general.deleteModalTitle')}
        modalBody={t('general.deleteModalBody', { name: website.name })}
        failedText={errorText('SYSTEM_ERROR', 'profileDelete')}
        onConfirm={async () => {
          await deleteProject(website.uuid);
          navigate(paths.profile, { replace: true });
        }}
      />
    </Stack>
  );
}

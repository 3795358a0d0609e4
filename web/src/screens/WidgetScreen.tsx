/**
 * /profile/widget/{id} (SPEC.md sections 2, 3, 5 and 6): every appearance setting of the widget, with the
 * plan-gated toggles shown only when the plan allows them, and a live preview of the launcher rendered by
 * the loader's own code (widget/src/launcher.ts) with the unsaved values.
 */
import {
  Alert,
  Anchor,
  Box,
  Button,
  ColorInput,
  Grid,
  Group,
  Input,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { displayDomain } from '#contracts/domains';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import type { PlanSettings } from '#contracts/plans';
import { type WidgetSettings, widgetLanguages, widgetPositions } from '#contracts/schemas';
import { schemeForeground } from '../../../widget/src/launcher';
import type { ProjectDetail } from '../api/types';
import { paths } from '../app/paths';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { useSwitches } from '../forms/switches';
import { showSaveError } from '../forms/validate';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { errorText } from '../i18n';
import { saveProject, useProfile, useProject } from '../projects/hooks';
import { LauncherPreview } from '../projects/LauncherPreview';
import { type Appearance, appearanceOf, contrastRatio, isHexColor, languageNames } from '../projects/model';
import { ProjectHeader } from '../projects/ProjectHeader';
import { textRules, WidgetTextsSection } from '../projects/WidgetTexts';

const swatches = ['#4F4EAE', '#1C7ED6', '#0CA678', '#F59F00', '#E8590C', '#E03131', '#C2255C', '#212529'];

/** Below this WCAG ratio the button text is hard to read (the minimum for large text and UI parts). */
const minContrast = 3;

export default function WidgetScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.widget'));
  const { id } = useParams();
  const { data } = useProject(id);
  const { data: profile } = useProfile();
  if (!data || !profile) return <PageLoader />;
  return <WidgetForm key={data.website.uuid} website={data.website} plan={profile.settings} />;
}

function WidgetForm({
  website,
  plan,
}: {
  website: ProjectDetail['website'];
  plan: PlanSettings | undefined;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<Appearance>({
    mode: 'controlled',
    initialValues: appearanceOf(website.data),
    validate: {
      widgetColor: (value) => (isHexColor(value) ? null : t('widget.colorInvalid')),
      widgetText: (value) =>
        value.trim() === ''
          ? t('validation.required')
          : value.trim().length > limits.widgetTextMax
            ? t('validation.invalid')
            : null,
      widgetTexts: textRules(() => t('validation.invalid')),
    },
  });
  const values = form.values;
  const attachments = plan?.attachments === true;
  const videos = plan?.videos === true;
  const branding = plan?.brandingRemoval === true;

  async function save(next: Appearance) {
    setSaving(true);
    setErrorCode(null);
    // Settings the plan does not offer are not on the screen, so they are not sent either.
    const data: Partial<WidgetSettings> = { ...next, widgetText: next.widgetText.trim() };
    if (!attachments) delete data.widgetDisableUpload;
    if (!videos) delete data.widgetDisableVideo;
    if (!branding) delete data.widgetDisableBranding;
    try {
      const saved = await saveProject(website.uuid, { data });
      const fresh = appearanceOf(saved.website.data);
      form.setInitialValues(fresh);
      form.setValues(fresh);
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  const scheme = values.widgetColorScheme;
  const other = scheme === 'white' ? 'black' : 'white';
  const lowContrast =
    isHexColor(values.widgetColor) &&
    contrastRatio(values.widgetColor, schemeForeground[scheme]) < minContrast &&
    contrastRatio(values.widgetColor, schemeForeground[other]) >
      contrastRatio(values.widgetColor, schemeForeground[scheme]);

  const toggle = useSwitches(form);

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <ProjectHeader project={website} title={t('screens.widget')} subtitle={t('widget.subtitle')} />
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Grid gap="lg" align="flex-start">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="lg">
              {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
              <Section title={t('widget.look')} labelId="widget-look">
                <Stack gap="md">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <Select
                      label={t('widget.language')}
                      description={t('widget.languageHint')}
                      data={widgetLanguages.map((value) => ({ value, label: languageNames[value] }))}
                      allowDeselect={false}
                      checkIconPosition="right"
                      key={form.key('widgetLanguage')}
                      {...form.getInputProps('widgetLanguage')}
                    />
                    <TextInput
                      label={t('widget.text')}
                      description={t('widget.textHint', {
                        count: values.widgetText.length,
                        max: limits.widgetTextMax,
                      })}
                      maxLength={limits.widgetTextMax}
                      required
                      key={form.key('widgetText')}
                      {...form.getInputProps('widgetText')}
                    />
                  </SimpleGrid>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <ColorInput
                      label={t('widget.color')}
                      description={t('widget.colorHint')}
                      format="hex"
                      swatches={swatches}
                      swatchesPerRow={8}
                      withEyeDropper={false}
                      maxLength={7}
                      key={form.key('widgetColor')}
                      {...form.getInputProps('widgetColor')}
                      onChange={(value) => form.setFieldValue('widgetColor', value.toUpperCase())}
                    />
                    <Input.Wrapper label={t('widget.scheme')} description={t('widget.schemeHint')}>
                      <SegmentedControl
                        fullWidth
                        mt={4}
                        data={[
                          { value: 'white', label: t('widget.light') },
                          { value: 'black', label: t('widget.dark') },
                        ]}
                        key={form.key('widgetColorScheme')}
                        {...form.getInputProps('widgetColorScheme')}
                      />
                    </Input.Wrapper>
                  </SimpleGrid>
                  {lowContrast && (
                    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} py="xs">
                      {t('widget.lowContrast', {
                        scheme: other === 'white' ? t('widget.light') : t('widget.dark'),
                      })}
                    </Alert>
                  )}
                  <Radio.Group
                    label={t('widget.position')}
                    key={form.key('widgetPosition')}
                    {...form.getInputProps('widgetPosition')}
                  >
                    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mt={6}>
                      {widgetPositions.map((position) => (
                        <Radio.Card
                          key={position}
                          value={position}
                          radius="md"
                          p="sm"
                          style={
                            values.widgetPosition === position
                              ? {
                                  borderColor: 'var(--mantine-color-brand-6)',
                                  background: 'var(--mantine-color-brand-0)',
                                }
                              : undefined
                          }
                        >
                          <Stack gap={8} align="center">
                            <PositionDiagram
                              position={position}
                              active={values.widgetPosition === position}
                            />
                            <Text size="sm" fw={550} ta="center">
                              {t(`widget.positions.${position}`)}
                            </Text>
                          </Stack>
                        </Radio.Card>
                      ))}
                    </SimpleGrid>
                  </Radio.Group>
                </Stack>
              </Section>
              <Section title={t('widget.features')} labelId="widget-features">
                <Stack gap="md">
                  {!attachments && !videos && (
                    <Alert color="brand" variant="light" icon={<IconSparkles size={18} />}>
                      {t('widget.freePlan')}{' '}
                      <Anchor component={Link} to={paths.billing} fw={600} inherit>
                        {t('widget.upgrade')}
                      </Anchor>
                    </Alert>
                  )}
                  {toggle(
                    'widgetDisableScreenshot',
                    t('onboarding.screenshots'),
                    t('onboarding.screenshotsHint'),
                    {
                      positive: true,
                    },
                  )}
                  {attachments &&
                    toggle('widgetDisableUpload', t('onboarding.uploads'), t('onboarding.uploadsHint'), {
                      positive: true,
                    })}
                  {videos &&
                    toggle('widgetDisableVideo', t('onboarding.video'), t('onboarding.videoHint'), {
                      positive: true,
                    })}
                  {toggle(
                    'widgetDisableWelcomeScreen',
                    t('onboarding.welcome'),
                    t('onboarding.welcomeHint'),
                    {
                      positive: true,
                    },
                  )}
                  {toggle('widgetDisableMobile', t('onboarding.mobile'), t('onboarding.mobileHint'), {
                    positive: true,
                  })}
                  {branding &&
                    toggle(
                      'widgetDisableBranding',
                      t('widget.removeBranding'),
                      t('widget.removeBrandingHint'),
                    )}
                </Stack>
              </Section>
              <WidgetTextsSection form={form} />
              <Group justify="flex-end" gap="sm">
                {form.isDirty() && (
                  <Text size="sm" c="dimmed" mr="auto">
                    {t('project.unsaved')}
                  </Text>
                )}
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty() || saving}>
                  {t('project.discard')}
                </Button>
                {/* Nothing changed, nothing to save. */}
                <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                  {t('project.save')}
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }} style={{ position: 'sticky', top: 88 }}>
            <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="sm">
                <Stack gap={2}>
                  <Title order={2} size="h4">
                    {t('widget.preview')}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {t('widget.previewHint', { domain: displayDomain(website.domain) })}
                  </Text>
                </Stack>
                <LauncherPreview
                  text={values.widgetText.trim() || website.data.widgetText}
                  color={isHexColor(values.widgetColor) ? values.widgetColor : website.data.widgetColor}
                  scheme={values.widgetColorScheme}
                  position={values.widgetPosition}
                  domain={website.domain}
                  label={t('widget.previewLabel')}
                />
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
      </form>
    </Stack>
  );
}

/** A small page outline with the launcher's place marked. */
function PositionDiagram({
  position,
  active,
}: {
  position: (typeof widgetPositions)[number];
  active: boolean;
}) {
  const side = position.startsWith('left') ? 'left' : 'right';
  const tab = position.endsWith('Middle');
  const color = active ? 'var(--mantine-color-brand-6)' : 'var(--mantine-color-gray-5)';
  return (
    <Box
      aria-hidden
      w={64}
      h={44}
      pos="relative"
      style={{
        border: '1.5px solid var(--mantine-color-gray-4)',
        borderRadius: 6,
        background: 'var(--mantine-color-white)',
      }}
    >
      <Box
        pos="absolute"
        bg={color}
        style={
          tab
            ? {
                [side]: 0,
                top: 13,
                width: 6,
                height: 16,
                borderRadius: side === 'right' ? '3px 0 0 3px' : '0 3px 3px 0',
              }
            : { [side]: 5, bottom: 5, width: 18, height: 8, borderRadius: 4 }
        }
      />
    </Box>
  );
}

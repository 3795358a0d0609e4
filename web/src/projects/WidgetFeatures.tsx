/**
 * The Widget screen's features (SPEC.md sections 3 and 6): the on/off switches, the plan-gated ones only
 * when the plan offers them, and on a plan with neither uploads nor videos the way to a better one.
 */
import { Alert, Anchor, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Section } from '../components/Section';
import { useSwitches } from '../forms/switches';
import { paths } from '../paths';
import type { Appearance } from './model';
import type { WidgetFeaturesOffered } from './useWidgetForm';

export function WidgetFeatures({
  form,
  offered,
}: {
  form: UseFormReturnType<Appearance>;
  offered: WidgetFeaturesOffered;
}) {
  const { t } = useTranslation();
  const { attachments, videos, replays, branding } = offered;
  const toggle = useSwitches(form);
  return (
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
        {toggle('widgetDisableScreenshot', t('onboarding.screenshots'), t('onboarding.screenshotsHint'), {
          positive: true,
        })}
        {attachments &&
          toggle('widgetDisableUpload', t('onboarding.uploads'), t('onboarding.uploadsHint'), {
            positive: true,
          })}
        {videos &&
          toggle('widgetDisableVideo', t('onboarding.video'), t('onboarding.videoHint'), {
            positive: true,
          })}
        {/* Issue 33: session replay, on the plans that have it, as video. */}
        {replays && toggle('widgetReplay', t('onboarding.replay'), t('onboarding.replayHint'))}
        {replays &&
          toggle('widgetReplayMaskText', t('onboarding.replayMaskText'), t('onboarding.replayMaskTextHint'))}
        {toggle('widgetDisableWelcomeScreen', t('onboarding.welcome'), t('onboarding.welcomeHint'), {
          positive: true,
        })}
        {toggle('widgetDisableMobile', t('onboarding.mobile'), t('onboarding.mobileHint'), {
          positive: true,
        })}
        {branding &&
          toggle('widgetDisableBranding', t('widget.removeBranding'), t('widget.removeBrandingHint'))}
      </Stack>
    </Section>
  );
}

/**
 * The Widget screen's live preview: the launcher as the loader draws it, with the unsaved values (a value
 * that is not valid yet shows the saved one instead).
 */
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { displayDomain } from '#contracts/domains';
import type { ProjectSettings } from '../api/types';
import { LauncherPreview } from './LauncherPreview';
import { type Appearance, isHexColor } from './model';

export function WidgetPreview({ website, values }: { website: ProjectSettings; values: Appearance }) {
  const { t } = useTranslation();
  return (
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
  );
}

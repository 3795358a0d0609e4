/**
 * The Widget screen's look (SPEC.md section 3): language (fixed, or the visitor's browser's with the
 * chosen one as the fallback), launcher text, colour and scheme (with a warning
 * when the other scheme would read better on this colour), and the launcher's position.
 */
import {
  Alert,
  ColorInput,
  Input,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { limits } from '#contracts/limits';
import { widgetLanguages } from '#contracts/schemas';
import { Section } from '../components/Section';
import { useSwitches } from '../forms/switches';
import { type Appearance, betterScheme, languageNames } from './model';
import { PositionPicker } from './PositionPicker';

const swatches = ['#4F4EAE', '#1C7ED6', '#0CA678', '#F59F00', '#E8590C', '#E03131', '#C2255C', '#212529'];

export function WidgetLook({ form }: { form: UseFormReturnType<Appearance> }) {
  const { t } = useTranslation();
  const values = form.values;
  const suggested = betterScheme(values.widgetColor, values.widgetColorScheme);
  const toggle = useSwitches(form);

  return (
    <Section title={t('widget.look')} labelId="widget-look">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label={t(values.widgetLanguageAuto ? 'widget.languageFallback' : 'widget.language')}
            description={t(values.widgetLanguageAuto ? 'widget.languageFallbackHint' : 'widget.languageHint')}
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
        {toggle('widgetLanguageAuto', t('widget.languageAuto'), t('widget.languageAutoHint'))}
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
        {suggested && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} py="xs">
            {t('widget.lowContrast', {
              scheme: suggested === 'white' ? t('widget.light') : t('widget.dark'),
            })}
          </Alert>
        )}
        <PositionPicker form={form} />
      </Stack>
    </Section>
  );
}

/**
 * The widget's own texts on the Widget screen (SPEC.md section 3, docs/decisions-widget.md "Own widget
 * texts"): the heading, welcome title and text, the description's placeholder and the thank-you text, for
 * the widget language chosen above. An empty field shows the built-in translation, which is its
 * placeholder; each field is checked by the same zod rule the API applies (widgetTextSetSchema).
 * Below them, a preview of those texts in the widget's colours (in the section, not in the sticky
 * column beside the form: that one holds the launcher preview and must fit the window's height).
 */
import { Box, Divider, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { type WidgetTextSet, widgetLanguages, widgetTextSetSchema } from '#contracts/schemas';
import { multiLineTexts, type WidgetTextKey, widgetTextKeys, widgetTextsMax } from '#contracts/widget-texts';
import { languages } from '../../../widget/src/i18n/bundled';
import en from '../../../widget/src/i18n/en';
import { schemeForeground } from '../../../widget/src/launcher';
import { Section } from '../components/Section';
import { type Appearance, languageNames } from './model';

type Language = Appearance['widgetLanguage'];

/** The built-in texts a field replaces: its placeholder, and what the preview shows while it is empty. */
const builtIn = (language: Language) => languages[language] ?? en;

/** The form path of one text, as Mantine and the API's `fields` name it. */
const pathOf = (language: Language, key: WidgetTextKey) => `widgetTexts.${language}.${key}`;

/** The message for a value the shared schema refuses, or null. */
export function textError(key: WidgetTextKey, value: string | undefined, invalid: string): string | null {
  return widgetTextSetSchema.shape[key].safeParse(value ?? '').success ? null : invalid;
}

/** Mantine validation rules for every language's texts: the form checks them all on save. */
export function textRules(invalid: () => string) {
  return Object.fromEntries(
    widgetLanguages.map((language) => [
      language,
      Object.fromEntries(
        widgetTextKeys.map((key) => [key, (value: string | undefined) => textError(key, value, invalid())]),
      ),
    ]),
  );
}

/**
 * `texts` with `key` set for `language`; an empty value removes the key (and an empty set its language),
 * so clearing a field returns the form to exactly what was loaded and the built-in text shows again.
 */
export function withText(
  texts: Appearance['widgetTexts'],
  language: Language,
  key: WidgetTextKey,
  value: string,
): Appearance['widgetTexts'] {
  const set: WidgetTextSet = { ...texts[language] };
  if (value === '') delete set[key];
  else set[key] = value;
  const next = { ...texts };
  if (Object.keys(set).length) next[language] = set;
  else delete next[language];
  return next;
}

export function WidgetTextsSection({ form }: { form: UseFormReturnType<Appearance> }) {
  const { t } = useTranslation();
  const { widgetLanguage: language, widgetTexts, widgetDisableWelcomeScreen } = form.values;
  const builtins = builtIn(language);
  const own = widgetTexts[language] ?? {};

  const field = (key: WidgetTextKey) => {
    const value = own[key] ?? '';
    const props = {
      label: t(`widget.texts.${key}`),
      description: t('widget.textHint', { count: value.length, max: widgetTextsMax[key] }),
      placeholder: builtins[key],
      maxLength: widgetTextsMax[key],
      value,
      error: form.errors[pathOf(language, key)],
      onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        form.setFieldValue('widgetTexts', withText(widgetTexts, language, key, e.currentTarget.value));
        form.clearFieldError(pathOf(language, key));
      },
      onBlur: () => {
        const error = textError(key, own[key], t('validation.invalid'));
        if (error) form.setFieldError(pathOf(language, key), error);
      },
    };
    return multiLineTexts.includes(key) ? (
      <Textarea key={key} autosize minRows={2} maxRows={6} {...props} />
    ) : (
      <TextInput key={key} {...props} />
    );
  };

  return (
    <Section
      title={t('widget.texts.section')}
      labelId="widget-texts"
      description={t('widget.texts.hint', { language: languageNames[language] })}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {field('title')}
          {field('descriptionPlaceholder')}
        </SimpleGrid>
        {field('welcomeTitle')}
        {field('welcomeText')}
        {widgetDisableWelcomeScreen && (
          <Text size="sm" c="dimmed" mt={-8}>
            {t('widget.texts.welcomeOff')}
          </Text>
        )}
        {field('thanksText')}
        <Divider my={4} />
        <WidgetTextsPreview values={form.values} />
      </Stack>
    </Section>
  );
}

/**
 * The texts as visitors read them: the panel's header in the widget colour, the welcome screen (when
 * on), the form's placeholder and the thank-you screen. Plain text, as in the widget.
 */
function WidgetTextsPreview({ values }: { values: Appearance }) {
  const { t } = useTranslation();
  const builtins = builtIn(values.widgetLanguage);
  const own = values.widgetTexts[values.widgetLanguage] ?? {};
  const text = (key: WidgetTextKey) => own[key]?.trim() || builtins[key];
  const color = /^#[0-9a-f]{6}$/i.test(values.widgetColor) ? values.widgetColor : '#4F4EAE';
  const card = (label: string, body: React.ReactNode) => (
    <Box>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <Box px="sm" py={6} style={{ background: color, color: schemeForeground[values.widgetColorScheme] }}>
          <Text size="sm" fw={650} style={{ overflowWrap: 'anywhere' }}>
            {text('title')}
          </Text>
        </Box>
        <Box p="sm">{body}</Box>
      </Paper>
    </Box>
  );
  const prose = { whiteSpace: 'pre-line', overflowWrap: 'anywhere' } as const;

  return (
    <Stack gap="sm" data-testid="widget-texts-preview">
      <Title order={3} size="h5">
        {t('widget.texts.preview')}
      </Title>
      {!values.widgetDisableWelcomeScreen &&
        card(
          t('widget.texts.previewWelcome'),
          <Stack gap={4} align="center" ta="center">
            <Text fw={700} style={prose}>
              {text('welcomeTitle')}
            </Text>
            <Text size="sm" c="dimmed" style={prose}>
              {text('welcomeText')}
            </Text>
          </Stack>,
        )}
      {card(
        t('widget.texts.previewForm'),
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {builtins.description}
          </Text>
          <Box
            p={8}
            mih={48}
            style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8, ...prose }}
          >
            <Text size="sm" c="dimmed">
              {text('descriptionPlaceholder')}
            </Text>
          </Box>
        </Stack>,
      )}
      {card(
        t('widget.texts.previewThanks'),
        <Stack gap={4} align="center" ta="center">
          <Text fw={700}>{builtins.thanksTitle}</Text>
          <Text size="sm" c="dimmed" style={prose}>
            {text('thanksText')}
          </Text>
        </Stack>,
      )}
    </Stack>
  );
}

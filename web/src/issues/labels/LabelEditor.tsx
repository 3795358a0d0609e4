/**
 * A label's name and colour: the name field, the preset colours as a row of pressable swatches (each named,
 * so the choice does not rest on colour alone), a hex field for any other colour, and a preview chip with
 * the text colour the chips will use.
 */
import { ColorInput, ColorSwatch, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { labelColorSchema, triageLimits } from '#contracts/triage';
import { labelPresets } from '../detail-model';
import { LabelChip } from '../TriageChips';
import { labelTextColor } from '../triage-model';

export interface LabelDraft {
  name: string;
  color: string;
}

export const validColor = (c: string) => labelColorSchema.safeParse(c).success;

export function LabelEditor({
  value,
  onChange,
  idPrefix,
  nameError,
  onEnter,
}: {
  value: LabelDraft;
  onChange: (v: LabelDraft) => void;
  idPrefix: string;
  nameError?: string | undefined;
  onEnter?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-start" wrap="wrap">
        <TextInput
          id={`${idPrefix}-name`}
          label={t('labels.name')}
          value={value.name}
          maxLength={triageLimits.labelNameMax}
          error={nameError}
          onChange={(e) => onChange({ ...value, name: e.currentTarget.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onEnter?.();
            }
          }}
          style={{ flex: '1 1 200px' }}
        />
        <ColorInput
          label={t('labels.color')}
          value={value.color}
          format="hex"
          withEyeDropper={false}
          withPicker={false}
          error={validColor(value.color) ? undefined : t('labels.colorInvalid')}
          onChange={(color) => onChange({ ...value, color })}
          style={{ flex: '0 1 160px' }}
        />
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={`${idPrefix}-presets`}>
          {t('labels.presets')}
        </Text>
        <Group gap={6} role="group" aria-labelledby={`${idPrefix}-presets`}>
          {labelPresets.map((c) => {
            const chosen = value.color.toLowerCase() === c;
            return (
              <ColorSwatch
                key={c}
                component="button"
                type="button"
                color={c}
                size={28}
                aria-label={t(`labels.colors.${c.slice(1)}` as 'labels.colors.e03131')}
                aria-pressed={chosen}
                onClick={() => onChange({ ...value, color: c })}
                style={{ cursor: 'pointer', color: labelTextColor(c) }}
              >
                {chosen && <IconCheck size={16} aria-hidden />}
              </ColorSwatch>
            );
          })}
        </Group>
      </Stack>
      {value.name.trim() && validColor(value.color) && (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t('labels.preview')}
          </Text>
          <LabelChip label={{ id: 'preview', name: value.name.trim(), color: value.color }} />
        </Group>
      )}
    </Stack>
  );
}

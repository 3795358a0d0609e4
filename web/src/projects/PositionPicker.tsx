/** The launcher's position: four cards, each with a small page outline that marks the launcher's place. */
import { Box, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { widgetPositions } from '#contracts/schemas';
import type { Appearance } from './model';

export function PositionPicker({ form }: { form: UseFormReturnType<Appearance> }) {
  const { t } = useTranslation();
  const current = form.values.widgetPosition;
  return (
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
              current === position
                ? {
                    borderColor: 'var(--mantine-color-brand-6)',
                    background: 'var(--mantine-color-brand-0)',
                  }
                : undefined
            }
          >
            <Stack gap={8} align="center">
              <PositionDiagram position={position} active={current === position} />
              <Text size="sm" fw={550} ta="center">
                {t(`widget.positions.${position}`)}
              </Text>
            </Stack>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
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

/** A centred card for a screen's state rather than its content: nothing here yet, or nothing more allowed. */
import { Box, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function StateCard({
  icon,
  title,
  text,
  actions,
  testId,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} data-testid={testId}>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={64} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed" maw={460}>
          {text}
        </Text>
        {actions && <Box mt="sm">{actions}</Box>}
      </Stack>
    </Paper>
  );
}

/**
 * Live preview of the widget launcher: the same rendering module the loader uses on customer pages
 * (widget/src/launcher.ts), inside a mock browser window. The window's page area has a transform, which
 * makes it the containing block of the launcher's `position: fixed` host, so the launcher sits at its
 * configured place inside the mock page instead of the dashboard's viewport.
 */
import { Box, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { createLauncher, type Launcher, type LauncherLook } from '../../../widget/src/launcher';

const bar = (width: string, height = 10, color = 'var(--mantine-color-gray-2)') => (
  <Box w={width} h={height} bg={color} style={{ borderRadius: 6 }} />
);

export function LauncherPreview({
  text,
  color,
  scheme,
  position,
  domain,
  label,
}: LauncherLook & { domain: string; label: string }) {
  const pageRef = useRef<HTMLDivElement>(null);
  const launcher = useRef<Launcher | null>(null);
  const look = useRef<LauncherLook>({ text, color, scheme, position });
  look.current = { text, color, scheme, position };

  useEffect(() => {
    const page = pageRef.current;
    if (!page) return;
    const created = createLauncher(document, look.current, () => {});
    created.button.tabIndex = -1;
    page.append(created.host);
    launcher.current = created;
    return () => {
      created.host.remove();
      launcher.current = null;
    };
  }, []);

  useEffect(() => {
    launcher.current?.update({ text, color, scheme, position });
  }, [text, color, scheme, position]);

  return (
    <Box
      role="img"
      aria-label={label}
      data-testid="widget-preview"
      style={{
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 12,
        overflow: 'hidden',
        background: 'var(--mantine-color-white)',
        boxShadow: 'var(--mantine-shadow-sm)',
      }}
    >
      <Group
        gap={6}
        px="sm"
        h={36}
        wrap="nowrap"
        style={{
          background: 'var(--mantine-color-gray-1)',
          borderBottom: '1px solid var(--mantine-color-gray-3)',
        }}
      >
        {['#FF5F57', '#FEBC2E', '#28C840'].map((c) => (
          <Box key={c} w={10} h={10} bg={c} style={{ borderRadius: '50%', flex: 'none' }} />
        ))}
        <Group
          gap={4}
          ml="sm"
          px="sm"
          h={22}
          wrap="nowrap"
          style={{ flex: 1, minWidth: 0, background: 'var(--mantine-color-white)', borderRadius: 11 }}
        >
          <IconLock size={12} color="var(--mantine-color-gray-6)" style={{ flex: 'none' }} />
          <Text size="xs" c="dimmed" truncate>
            {domain}
          </Text>
        </Group>
      </Group>
      <Box
        ref={pageRef}
        inert
        h={380}
        p="lg"
        style={{ position: 'relative', transform: 'translateZ(0)', overflow: 'hidden' }}
      >
        <Group justify="space-between" mb="xl">
          {bar('28%', 14, 'var(--mantine-color-gray-3)')}
          <Group gap="sm">
            {bar('48px')}
            {bar('48px')}
            {bar('48px')}
          </Group>
        </Group>
        <Box h={110} mb="lg" bg="var(--mantine-color-gray-1)" style={{ borderRadius: 10 }} />
        <Box mb={10}>{bar('72%', 12, 'var(--mantine-color-gray-3)')}</Box>
        <Box mb={10}>{bar('90%')}</Box>
        <Box mb={10}>{bar('84%')}</Box>
        <Box mb={10}>{bar('60%')}</Box>
        <Group grow gap="md" mt="lg">
          <Box h={56} bg="var(--mantine-color-gray-1)" style={{ borderRadius: 10 }} />
          <Box h={56} bg="var(--mantine-color-gray-1)" style={{ borderRadius: 10 }} />
        </Group>
      </Box>
    </Box>
  );
}

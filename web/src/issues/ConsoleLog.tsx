/** The browser console entries the widget captured, collapsed behind a summary of their count and errors. */
import { Badge, Box, Button, Collapse, Group, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import { Section } from '../components/Section';
import { logTime } from './model';

export function ConsoleLog({ issue, locale }: { issue: IssueAnswer; locale: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const count = issue.logs.length;
  const errors = issue.logs.filter((l) => l.level === 'error').length;
  return (
    <Section
      title={t('issue.log')}
      labelId="issue-log"
      description={count ? t('issue.logSummary', { count, errors }) : t('issue.logEmpty')}
      actions={
        count > 0 && (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls="issue-log-entries"
            rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          >
            {open ? t('issue.hide') : t('issue.show')}
          </Button>
        )
      }
    >
      {count > 0 && (
        <Collapse expanded={open} id="issue-log-entries">
          <Stack gap={6}>
            {issue.logs.map((entry, i) => (
              <Box
                // biome-ignore lint/suspicious/noArrayIndexKey: the log is a fixed record; entries never move.
                key={i}
                py={4}
                style={{ borderTop: i ? '1px solid var(--mantine-color-gray-2)' : undefined }}
              >
                <Group gap={6} mb={2}>
                  <Badge size="xs" variant="light" color={entry.level === 'error' ? 'red' : 'yellow'}>
                    {t(`issue.levels.${entry.level}`)}
                  </Badge>
                  <Badge size="xs" variant="outline" color="gray">
                    {t(`issue.logKinds.${entry.kind}`)}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {logTime(entry, locale)}
                  </Text>
                </Group>
                <Text
                  ff="monospace"
                  fz="xs"
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid="log-entry"
                >
                  {entry.msg}
                </Text>
              </Box>
            ))}
          </Stack>
        </Collapse>
      )}
    </Section>
  );
}

/**
 * "Possibly the same as" (issue 37): up to five open issues the suggestions found for this report, each
 * with its score and the reasons in words, and "Merge into #12" for whoever may merge; on an issue that may
 * gather duplicates (standing alone, or a primary already), "Merge #12 into this issue" too: the member who
 * opens the first report of thirty gathers the others from where they are listed. Nothing while the
 * suggestions are unknown (the route not answering); a quiet line while the signals are still computed.
 */
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { similarLimits } from '#contracts/similar';
import { Section } from '../components/Section';
import { paths } from '../paths';
import { useSimilar } from './data';

export function SimilarPanel({
  projectId,
  n,
  onMerge,
  onGather,
  busy,
}: {
  projectId: string;
  n: number;
  /** Absent when this issue may not be merged (a primary, or a GUEST's view). */
  onMerge?: ((into: number) => void) | undefined;
  /** Merges suggestion `m` into this issue; absent when this issue is a duplicate or for a GUEST. */
  onGather?: ((m: number) => void) | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const { data: answer, error } = useSimilar(projectId, n);
  if (!answer || error) return null;
  const rows = answer.similar.slice(0, similarLimits.suggestions);
  return (
    <Section title={t('merge.similarTitle')} description={t('merge.similarHint')} labelId="similar-title">
      {!answer.ready ? (
        <Text size="sm" c="dimmed" role="status">
          {t('merge.similarPending')}
        </Text>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('merge.similarNone')}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((s) => (
            <li key={s.number} data-testid="similar-row">
              <Stack gap={4}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Anchor
                    component={Link}
                    to={paths.ticket(projectId, String(s.number))}
                    size="sm"
                    fw={600}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    #{s.number} {s.title}
                  </Anchor>
                  <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                    {t('merge.score', { score: Math.round(s.score * 100) })}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {s.reasons.map((r) => t(`merge.reason.${r}`)).join(' · ')}
                  {s.reports > 1 ? ` · ${t('merge.reports', { count: s.reports })}` : ''}
                </Text>
                <Group gap="xs">
                  {onMerge && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      w="fit-content"
                      disabled={busy}
                      aria-label={t('merge.mergeIntoLabel', { n: s.number })}
                      onClick={() => onMerge(s.number)}
                    >
                      {t('merge.mergeInto', { n: s.number })}
                    </Button>
                  )}
                  {/* A suggestion that gathers reports of its own is not merged (MERGE_HAS_DUPLICATES). */}
                  {onGather && s.reports <= 1 && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      w="fit-content"
                      disabled={busy}
                      aria-label={t('merge.gatherLabel', { m: s.number, n })}
                      onClick={() => onGather(s.number)}
                    >
                      {t('merge.gather', { m: s.number })}
                    </Button>
                  )}
                </Group>
              </Stack>
            </li>
          ))}
        </Stack>
      )}
    </Section>
  );
}

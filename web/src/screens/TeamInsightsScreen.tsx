/**
 * /profile/team/insights (issue 37): the team's figures, summed over the projects the reader may see (a
 * guest: the projects of their invitation), with each oldest open issue naming its project.
 */
import { Group, Stack, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../components/PageLoader';
import { StateCard } from '../components/StateCard';
import { useDocumentTitle } from '../hooks/title';
import { useTeamInsights } from '../insights/data';
import { InsightsView } from '../insights/InsightsView';
import { PeriodSelect, usePeriod } from '../insights/PeriodSelect';
import { useCurrentTeam } from '../teams/data';
import '../insights/texts';

export default function TeamInsightsScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('insights.teamTitle'));
  const { team } = useCurrentTeam();
  const [period, setPeriod] = usePeriod();
  const { data } = useTeamInsights(team?.id, period);
  if (!team || !data) return <PageLoader />;
  const empty = data.reports.total === 0 && data.open.total === 0 && data.resolve.resolved === 0;
  return (
    <Stack gap="lg" maw={1200} mx="auto" w="100%" data-testid="team-insights-screen">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('insights.teamTitle')}
          </Title>
          <Text c="dimmed">{t('insights.teamSubtitle', { team: team.name })}</Text>
        </Stack>
        <PeriodSelect period={period} onChange={setPeriod} />
      </Group>
      {empty ? (
        <StateCard
          icon={<IconChartBar size={32} />}
          title={t('insights.emptyTitle')}
          text={t('insights.emptyText')}
          testId="insights-empty"
        />
      ) : (
        <InsightsView data={data} team />
      )}
    </Stack>
  );
}

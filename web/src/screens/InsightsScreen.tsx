/**
 * /profile/insights/{id} (issue 37): a project's figures at a glance for 7, 30 or 90 days, read from
 * counters (the same cost at any size). Every role that may read the project sees it; a new project gets
 * an empty state instead of empty charts.
 */
import { Group, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader';
import { StateCard } from '../components/StateCard';
import { useDocumentTitle } from '../hooks/title';
import { useProjectInsights } from '../insights/data';
import { InsightsView } from '../insights/InsightsView';
import { PeriodSelect, usePeriod } from '../insights/PeriodSelect';
import { useProject } from '../projects/data';
import { ProjectHeader } from '../projects/ProjectHeader';
import '../insights/texts';

export default function InsightsScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('insights.title'));
  const { id = '' } = useParams();
  const { data: project } = useProject(id);
  const [period, setPeriod] = usePeriod();
  const { data } = useProjectInsights(id, period);
  if (!project || !data) return <PageLoader />;
  const empty = data.reports.total === 0 && data.open.total === 0 && data.resolve.resolved === 0;
  return (
    <Stack gap="lg" data-testid="insights-screen">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectHeader project={project.website} title={t('insights.title')} />
        <PeriodSelect period={period} onChange={setPeriod} />
      </Group>
      <Text c="dimmed">{t('insights.subtitle')}</Text>
      {empty ? (
        <StateCard
          icon={<IconChartBar size={32} />}
          title={t('insights.emptyTitle')}
          text={t('insights.emptyText')}
          testId="insights-empty"
        />
      ) : (
        <InsightsView data={data} team={false} />
      )}
    </Stack>
  );
}

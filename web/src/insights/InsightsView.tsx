/**
 * The Insights body (issue 37), a project's or a team's: the period's headline figures, reports per day,
 * open issues by status and priority, the pages, browsers, systems and devices that report most, and the
 * oldest open issues. Charts from @mantine/charts (recharts), each with its table (ChartCard); this module
 * is only reached through the two lazy Insights screens, so the charts stay out of the initial bundle.
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Anchor, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { InsightsAnswer } from '#contracts/insights';
import { paths } from '../paths';
import { ChartCard, type Row } from './ChartCard';
import { durationParts, shortDay } from './model';

// recharts' keyboard layer makes the SVG a focus stop inside a labelled image; the table is the keyboard
// and screen-reader path to the figures, so the chart stays a picture.
const chartProps = { accessibilityLayer: false } as const;

function Bars({ rows, vertical, name }: { rows: Row[]; vertical?: boolean; name: string }) {
  const data = rows.map((r) => ({ label: r.label, count: r.count }));
  return (
    <BarChart
      h={vertical ? Math.max(120, rows.length * 36) : 220}
      data={data}
      dataKey="label"
      orientation={vertical ? 'vertical' : 'horizontal'}
      series={[{ name: 'count', label: name, color: 'brand.6' }]}
      // Counts are whole: no 0.5 ticks.
      yAxisProps={vertical ? { width: 120 } : { allowDecimals: false }}
      xAxisProps={vertical ? { allowDecimals: false } : undefined}
      gridAxis={vertical ? 'x' : 'y'}
      tickLine="none"
      barChartProps={chartProps}
      withTooltip
    />
  );
}

function Figure({
  label,
  value,
  testId,
  hint,
}: {
  label: string;
  value: string;
  testId: string;
  hint?: string;
}) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={{ base: 22, sm: 28 }} fw={700} lh={1.2}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

export function InsightsView({ data, team }: { data: InsightsAnswer; team: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const duration = (seconds: number | null) => {
    if (seconds === null) return '–';
    const { unit, count } = durationParts(seconds);
    return t(`insights.duration.${unit}`, { count });
  };
  const family = (key: string) =>
    t(`insights.family.${key}` as 'insights.family.other', { defaultValue: key });
  const reportsName = t('insights.column.reports');
  const perDay: Row[] = data.reports.perDay.map((d) => ({
    key: d.date,
    label: shortDay(d.date, lang),
    count: d.count,
  }));
  const status: Row[] = data.open.byStatus.map((s) => ({
    key: s.status,
    label: t(`triage.status.${s.status}`),
    count: s.count,
  }));
  const priority: Row[] = [...data.open.byPriority].reverse().map((p) => ({
    key: p.priority,
    label: t(`triage.priority.${p.priority}`),
    count: p.count,
  }));
  const families = (list: { key: string; count: number }[]): Row[] =>
    list.map((e) => ({ key: e.key, label: family(e.key), count: e.count }));
  const pages: Row[] = data.top.pages.map((p) => ({ key: p.key, label: p.key, count: p.count }));
  const percent = Math.ceil(data.resolve.relativeError * 100);
  const dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Figure label={t('insights.reports')} value={String(data.reports.total)} testId="insights-reports" />
        <Figure label={t('insights.open')} value={String(data.open.total)} testId="insights-open" />
        <Figure
          label={t('insights.median')}
          value={duration(data.resolve.median)}
          testId="insights-median"
          hint={
            data.resolve.resolved
              ? t('insights.resolved', { count: data.resolve.resolved })
              : t('insights.noResolved')
          }
        />
        <Figure
          label={t('insights.p90')}
          value={duration(data.resolve.p90)}
          testId="insights-p90"
          hint={data.resolve.resolved ? t('insights.bound', { percent }) : undefined}
        />
      </SimpleGrid>
      <ChartCard
        title={t('insights.perDay')}
        column={t('insights.column.day')}
        rows={perDay}
        chart={<Bars rows={perDay} name={reportsName} />}
        testId="insights-per-day"
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard
          title={t('insights.byStatus')}
          column={t('insights.column.status')}
          rows={status}
          chart={<Bars rows={status} vertical name={t('insights.column.issues')} />}
          valueColumn={t('insights.column.issues')}
          testId="insights-status"
        />
        <ChartCard
          title={t('insights.byPriority')}
          column={t('insights.column.priority')}
          rows={priority}
          chart={<Bars rows={priority} vertical name={t('insights.column.issues')} />}
          valueColumn={t('insights.column.issues')}
          testId="insights-priority"
        />
      </SimpleGrid>
      <ChartCard
        title={t('insights.pages')}
        column={t('insights.column.page')}
        rows={pages}
        chart={
          <Bars rows={pages.map((p) => ({ ...p, label: shorten(p.label) }))} vertical name={reportsName} />
        }
        testId="insights-pages"
        note={
          data.top.otherPages > 0 ? (
            <Text size="xs" c="dimmed">
              {t('insights.otherPages', { count: data.top.otherPages })}
            </Text>
          ) : undefined
        }
      />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {(
          [
            ['browsers', 'browser', data.top.browsers],
            ['systems', 'system', data.top.systems],
            ['devices', 'device', data.top.devices],
          ] as const
        ).map(([title, column, list]) => {
          const rows = families(list);
          return (
            <ChartCard
              key={title}
              title={t(`insights.${title}`)}
              column={t(`insights.column.${column}`)}
              rows={rows}
              chart={<Bars rows={rows} vertical name={reportsName} />}
              testId={`insights-${title}`}
            />
          );
        })}
      </SimpleGrid>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="insights-oldest-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="insights-oldest-title">
            {t('insights.oldest')}
          </Title>
          {data.oldestOpen.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('insights.noData')}
            </Text>
          ) : (
            <List spacing="xs" listStyleType="none" data-testid="insights-oldest">
              {data.oldestOpen.map((o) => (
                <List.Item key={`${o.projectId}:${o.number}`}>
                  <Group gap="xs" wrap="wrap">
                    <Anchor component={Link} to={paths.ticket(o.projectId, String(o.number))} fw={600}>
                      #{o.number} {o.title}
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {team ? `${o.projectName} · ` : ''}
                      {t(`triage.status.${o.status}`)} ·{' '}
                      {t('insights.openSince', { date: dateFormat.format(new Date(o.createdAt)) })}
                    </Text>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** A page's text for the chart's narrow axis: its path, its end kept when long (the table shows it whole). */
function shorten(page: string): string {
  const slash = page.indexOf('/');
  const path = slash > 0 ? page.slice(slash) : page;
  return path.length > 18 ? `…${path.slice(-17)}` : path;
}

/**
 * One figure of the Insights screen: its title, a chart, and a "Show as table" switch that puts the same
 * figures in a table (the chart's accessible alternative: screen readers and anyone who wants the numbers).
 */
import { Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface Row {
  key: string;
  label: string;
  count: number;
}

export function ChartCard({
  title,
  column,
  rows,
  chart,
  testId,
  note,
  valueColumn,
}: {
  title: string;
  /** The first column's heading (what each row is). */
  column: string;
  rows: Row[];
  chart: ReactNode;
  testId: string;
  note?: ReactNode;
  /** The count column's heading (default: reports). */
  valueColumn?: string;
}) {
  const { t } = useTranslation();
  const [table, setTable] = useState(false);
  const id = useId();
  const empty = rows.every((r) => r.count === 0);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id} data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {!empty && (
            <Switch
              size="sm"
              label={t('insights.showTable')}
              checked={table}
              onChange={(e) => setTable(e.currentTarget.checked)}
              data-testid={`${testId}-table-toggle`}
            />
          )}
        </Group>
        {empty ? (
          <Text c="dimmed" size="sm">
            {t('insights.noData')}
          </Text>
        ) : table ? (
          <Table striped withTableBorder data-testid={`${testId}-table`}>
            <Table.Caption>{title}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{column}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {valueColumn ?? t('insights.column.reports')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.key}>
                  <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                    {r.label}
                  </Table.Th>
                  <Table.Td ta="right">{r.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <div role="img" aria-label={t('insights.chartLabel', { title })} data-testid={`${testId}-chart`}>
            {chart}
          </div>
        )}
        {note}
      </Stack>
    </Paper>
  );
}

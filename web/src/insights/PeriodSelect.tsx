/** The Insights period (7, 30 or 90 days), kept in the address (`?period=`) so a link shares the view. */
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { type InsightsPeriod, insightsPeriods } from '#contracts/insights';

export function usePeriod(): [InsightsPeriod, (p: InsightsPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('period'));
  const period = (insightsPeriods as readonly number[]).includes(asked) ? (asked as InsightsPeriod) : 30;
  const set = (p: InsightsPeriod) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('period', String(p));
        return next;
      },
      { replace: true },
    );
  return [period, set];
}

export function PeriodSelect({
  period,
  onChange,
}: {
  period: InsightsPeriod;
  onChange: (p: InsightsPeriod) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('insights.period')}
      w={200}
      data={insightsPeriods.map((p) => ({
        value: String(p),
        label: t('insights.periodOption', { count: p }),
      }))}
      value={String(period)}
      onChange={(v) => v && onChange(Number(v) as InsightsPeriod)}
      allowDeselect={false}
      checkIconPosition="right"
      data-testid="insights-period"
    />
  );
}

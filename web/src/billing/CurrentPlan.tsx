/** The current plan and its expiry ('available till' for Business, SPEC.md section 2). */
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../api/types';
import { formatDate } from './format';

export function CurrentPlan({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const plan = profile.plan ?? 'FREE_PLAN';
  const expire = profile.plan_expire?.date;
  let detail: string = t('billing.current.free');
  if (plan !== 'FREE_PLAN')
    detail = expire
      ? t(plan === 'BUSINESS_PLAN' ? 'billing.current.availableTill' : 'billing.current.validUntil', {
          date: formatDate(expire),
        })
      : t('billing.current.noExpiry');
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby="billing-current"
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text size="sm" c="dimmed" id="billing-current">
            {t('billing.current.title')}
          </Text>
          <Title order={2} size="h3" data-testid="current-plan">
            {t(`billing.plans.${plan}`)}
          </Title>
        </Stack>
        <Text fw={500} data-testid="plan-expiry">
          {detail}
        </Text>
      </Group>
    </Paper>
  );
}

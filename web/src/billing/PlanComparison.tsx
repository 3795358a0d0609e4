/** The plan comparison, from the one plan table (functions/contracts/plans.ts). */
import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type PlanName, planNames, plans } from '#contracts/plans';
import { formatSize } from './format';

function Feature({ on, children }: { on: boolean; children: string }) {
  return (
    <List.Item
      icon={
        <ThemeIcon size={20} radius="xl" color={on ? 'teal' : 'gray'} variant={on ? 'filled' : 'light'}>
          {on ? <IconCheck size={13} /> : <IconMinus size={13} />}
        </ThemeIcon>
      }
    >
      <Text size="sm" c={on ? undefined : 'dimmed'}>
        {children}
      </Text>
    </List.Item>
  );
}

export function PlanComparison({ current }: { current: PlanName }) {
  const { t } = useTranslation();
  const priceOf: Record<PlanName, string> = {
    FREE_PLAN: t('billing.plans.freePrice'),
    BASIC_PLAN: t('billing.plans.starterPrice'),
    BUSINESS_PLAN: t('billing.plans.businessPrice'),
  };
  return (
    <Stack gap="md" component="section" aria-labelledby="billing-compare">
      <Title order={2} size="h4" id="billing-compare">
        {t('billing.plans.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {planNames.map((name) => {
          const p = plans[name];
          const isCurrent = name === current;
          return (
            <Paper
              key={name}
              withBorder
              radius="lg"
              p="lg"
              data-testid={`plan-${name}`}
              style={
                isCurrent ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined
              }
            >
              <Stack gap="sm">
                <Group justify="space-between">
                  <Title order={3} size="h4">
                    {t(`billing.plans.${name}`)}
                  </Title>
                  {isCurrent && <Badge>{t('billing.plans.currentBadge')}</Badge>}
                </Group>
                <Text fw={700} size="lg">
                  {priceOf[name]}
                </Text>
                <List spacing={6} center>
                  <Feature on>
                    {p.projects === null
                      ? t('billing.plans.unlimitedProjects')
                      : t('billing.plans.projects', { count: p.projects })}
                  </Feature>
                  <Feature on>
                    {p.storageBytes === null
                      ? t('billing.plans.unlimitedStorage')
                      : t('billing.plans.storage', { size: formatSize(p.storageBytes) })}
                  </Feature>
                  <Feature on={p.integrations}>
                    {p.integrations ? t('billing.plans.integrations') : t('billing.plans.emailOnly')}
                  </Feature>
                  <Feature on={p.attachments}>
                    {p.attachments ? t('billing.plans.attachments') : t('billing.plans.noAttachments')}
                  </Feature>
                  <Feature on={p.brandingRemoval}>{t('billing.plans.branding')}</Feature>
                  <Feature on={name === 'BUSINESS_PLAN'}>{t('billing.plans.support')}</Feature>
                </List>
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

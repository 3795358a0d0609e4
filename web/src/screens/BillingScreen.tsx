/**
 * /profile/billing (SPEC.md sections 2, 5 and 9; issues 12 and 19): the current plan, the plan
 * comparison, Starter by card with its invoice details, the Business request (or the pending one), the
 * history with each payment's invoice, and the checkout's `?success` / `?canceled` return. The parts live
 * in web/src/billing/.
 */
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../accounts/data';
import { BusinessRequest } from '../billing/BusinessRequest';
import { CurrentPlan } from '../billing/CurrentPlan';
import { usePayments } from '../billing/data';
import { History } from '../billing/History';
import { PlanComparison } from '../billing/PlanComparison';
import { ReturnNotice } from '../billing/ReturnNotice';
import { StarterPurchase } from '../billing/StarterPurchase';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';

export default function BillingScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.billing'));
  const { data: profile } = useProfile();
  const { data: billing } = usePayments();

  if (!profile) return <PageLoader />;
  const plan = profile.plan ?? 'FREE_PLAN';
  return (
    <Stack gap="xl" maw={1100} mx="auto" w="100%">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('billing.title')}
        </Title>
        <Text c="dimmed">{t('billing.subtitle')}</Text>
      </Stack>
      <ReturnNotice />
      <CurrentPlan profile={profile} />
      <PlanComparison current={plan} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <StarterPurchase profile={profile} businessActive={plan === 'BUSINESS_PLAN'} />
        <BusinessRequest profile={profile} pending={billing?.businessRequest} />
      </SimpleGrid>
      <History rows={billing?.payments} />
    </Stack>
  );
}

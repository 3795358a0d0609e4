/**
 * /profile/billing (SPEC.md sections 2, 5 and 9; issue 12): the plan comparison from the plan table, the
 * current plan and its expiry ('available till' for Business), the Starter period choice and card
 * checkout, the `?success` return (message shown, then the parameter removed), the Business request form
 * with the shared country list and VAT rules, and the transaction history.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCircleCheck, IconMinus } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { mutate } from 'swr';
import { euros, starterPeriods } from '../../../functions/shared/billing';
import {
  type BusinessRequestInput,
  businessRequestSchema,
  countryList,
  findCountry,
} from '../../../functions/shared/countries';
import type { ErrorCode } from '../../../functions/shared/errors';
import { businessPeriodsMonths, type PlanName, planNames, plans } from '../../../functions/shared/plans';
import { api, errorCodeOf } from '../api';
import { type Answer, endpointPath } from '../api/endpoints';
import { toLogin, useEndpoint } from '../api/swr';
import type { Profile } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { currentLanguage, displayLocale, errorText } from '../i18n';
import { useDocumentTitle } from './ComingSoon';

const profilePath = endpointPath('profile.get');
const paymentsPath = endpointPath('billing.payments');

type PaymentRow = Answer<'billing.payments'>['payments'][number];

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(displayLocale(), { year: 'numeric', month: 'long', day: 'numeric' });

const formatSize = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;

/** Euros in the UI language's format (10 €, €10). */
const price = (cents: number) =>
  currentLanguage() === 'de' ? `${euros(cents).slice(1)} €`.replace('.', ',') : euros(cents);

export default function BillingScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.billing'));
  const { data: profile } = useEndpoint('profile.get', {}, { redirect: toLogin });
  const { data: history } = useEndpoint('billing.payments', {});
  const [params, setParams] = useSearchParams();
  const [success, setSuccess] = useState(false);

  // The return from checkout: show the message, refresh plan and history, and drop the parameter.
  useEffect(() => {
    if (!params.has('success')) return;
    setSuccess(true);
    void mutate(profilePath);
    void mutate(paymentsPath);
    const next = new URLSearchParams(params);
    next.delete('success');
    setParams(next, { replace: true });
  }, [params, setParams]);

  // With Stripe itself the webhook may land a moment after the return: look again for a little while.
  useEffect(() => {
    if (!success) return;
    let left = 10;
    const timer = setInterval(() => {
      void mutate(profilePath);
      void mutate(paymentsPath);
      if (--left === 0) clearInterval(timer);
    }, 2000);
    return () => clearInterval(timer);
  }, [success]);

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
      {success && (
        <Alert
          color="teal"
          icon={<IconCircleCheck />}
          title={t('billing.successTitle')}
          withCloseButton
          onClose={() => setSuccess(false)}
          data-testid="payment-success"
        >
          {t('billing.success')}
        </Alert>
      )}
      <CurrentPlan profile={profile} />
      <PlanComparison current={plan} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <StarterPurchase businessActive={plan === 'BUSINESS_PLAN'} />
        <BusinessRequest profile={profile} />
      </SimpleGrid>
      <History rows={history?.payments} />
    </Stack>
  );
}

function CurrentPlan({ profile }: { profile: Profile }) {
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

function PlanComparison({ current }: { current: PlanName }) {
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

const periodLabel = (t: ReturnType<typeof useTranslation>['t'], months: number) =>
  months === 12 ? t('billing.starter.year') : t('billing.starter.months', { count: months });

function StarterPurchase({ businessActive }: { businessActive: boolean }) {
  const { t } = useTranslation();
  const [months, setMonths] = useState(String(starterPeriods[0]?.months ?? 1));
  const [paying, setPaying] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const chosen = starterPeriods.find((p) => String(p.months) === months) ?? starterPeriods[0]!;

  async function pay() {
    setPaying(true);
    setErrorCode(null);
    try {
      // The server prices the period from its own table; the amount only names the choice.
      const session = await api.call('billing.checkout', { body: { amount: chosen.amount } });
      window.location.assign(session.url);
    } catch (error) {
      // SPEC.md section 8: a card checkout failure reads as SYSTEM_ERROR.
      setErrorCode(errorCodeOf(error) === 'PLAN_LIMIT' ? 'PLAN_LIMIT' : 'SYSTEM_ERROR');
      setPaying(false);
    }
  }

  return (
    <Section
      title={t('billing.starter.title')}
      description={t('billing.starter.description')}
      labelId="billing-starter"
    >
      <Stack gap="md">
        {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
        {businessActive && <Text c="dimmed">{t('billing.starter.businessActive')}</Text>}
        <Radio.Group
          label={t('billing.starter.period')}
          value={months}
          onChange={setMonths}
          name="starter-period"
        >
          <Stack gap="xs" mt="xs">
            {starterPeriods.map((p) => (
              <Radio
                key={p.months}
                value={String(p.months)}
                label={`${periodLabel(t, p.months)} · ${price(p.amount)}`}
                disabled={businessActive}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end">
          <Button onClick={pay} loading={paying} disabled={businessActive} data-testid="starter-pay">
            {t('billing.starter.pay', { price: price(chosen.amount) })}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

type RequestValues = {
  company: string;
  period: string;
  payment_method: 'card' | 'invoice';
  country_code: string;
  vat: string;
  comment: string;
};

function BusinessRequest({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'de' ? 'de' : 'en';
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const defaults = (): RequestValues => ({
    company: profile.company ?? '',
    period: '12',
    payment_method: 'invoice',
    // SPEC.md section 9: Germany is the default in German.
    country_code: profile.country || (lang === 'de' ? 'DE' : ''),
    vat: profile.vat ?? '',
    comment: '',
  });
  const toInput = (v: RequestValues) => ({
    ...v,
    country: (() => {
      const c = findCountry(v.country_code);
      return c ? (lang === 'de' ? c.label_de : c.label_en) : '';
    })(),
  });
  const validate = schemaValidator<RequestValues>(businessRequestSchema);
  const form = useForm<RequestValues>({
    initialValues: defaults(),
    validate: (values) => {
      const errors = validate(toInput(values) as unknown as RequestValues);
      if (errors.country && !errors.country_code) errors.country_code = errors.country;
      return errors;
    },
    validateInputOnChange: ['vat', 'country_code'],
    validateInputOnBlur: true,
  });
  // In German with nothing chosen yet, the default follows a language switch.
  useEffect(() => {
    if (lang === 'de' && !form.values.country_code) form.setFieldValue('country_code', 'DE');
  }, [lang, form]);

  const options = useMemo(
    () =>
      countryList
        .map((c) => ({ value: c.value, label: lang === 'de' ? c.label_de : c.label_en }))
        .sort((a, b) => a.label.localeCompare(b.label, lang)),
    [lang],
  );
  const country = findCountry(form.values.country_code);
  const valid = businessRequestSchema.safeParse(toInput(form.values)).success;
  const vatHint = !country
    ? undefined
    : country.isVatRequired
      ? t('billing.business.vatRequired')
      : country.isVatOptional
        ? t('billing.business.vatOptional')
        : t('billing.business.vatNotNeeded');

  async function send(values: RequestValues) {
    setSending(true);
    setFailed(false);
    try {
      const input: BusinessRequestInput = businessRequestSchema.parse(toInput(values));
      const body = new FormData();
      for (const [k, v] of Object.entries(input)) body.append(k, String(v));
      await api.call('billing.businessRequest', { form: body });
      toastSuccess(t('billing.business.sent'));
      form.setValues({ ...values, comment: '' });
      form.resetDirty();
    } catch (error) {
      if (errorCodeOf(error) === 'INVALID_VAT') form.setFieldError('vat', errorText('INVALID_VAT'));
      else setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <Section
      title={t('billing.business.title')}
      description={t('billing.business.description')}
      labelId="billing-business"
    >
      <form onSubmit={form.onSubmit(send)} noValidate data-testid="business-form">
        <Stack gap="md">
          {failed && <ErrorAlert>{t('billing.business.failed')}</ErrorAlert>}
          <TextInput
            label={t('billing.business.company')}
            required
            maxLength={100}
            {...form.getInputProps('company')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <Select
              label={t('billing.business.period')}
              required
              allowDeselect={false}
              data={businessPeriodsMonths.map((m) => ({ value: String(m), label: periodLabel(t, m) }))}
              {...form.getInputProps('period')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('billing.business.paymentMethod')}
              </Text>
              <SegmentedControl
                fullWidth
                data={[
                  { value: 'card', label: t('billing.business.card') },
                  { value: 'invoice', label: t('billing.business.invoice') },
                ]}
                {...form.getInputProps('payment_method')}
              />
            </Stack>
          </SimpleGrid>
          <Select
            label={t('billing.business.country')}
            placeholder={t('billing.business.countryPlaceholder')}
            required
            searchable
            allowDeselect={false}
            data={options}
            data-testid="country-select"
            {...form.getInputProps('country_code')}
          />
          <TextInput
            label={t('billing.business.vat')}
            description={vatHint}
            required={!!country?.isVatRequired}
            maxLength={30}
            data-testid="vat-input"
            {...form.getInputProps('vat')}
          />
          <Textarea
            label={t('billing.business.comment')}
            autosize
            minRows={2}
            maxLength={1000}
            {...form.getInputProps('comment')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={sending} disabled={!valid} data-testid="business-submit">
              {t('billing.business.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function History({ rows }: { rows: PaymentRow[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Section title={t('billing.history.title')} labelId="billing-history">
      {rows && rows.length === 0 ? (
        <Text c="dimmed">{t('billing.history.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table striped highlightOnHover data-testid="payment-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('billing.history.date')}</Table.Th>
                <Table.Th>{t('billing.history.period')}</Table.Th>
                <Table.Th>{t('billing.history.plan')}</Table.Th>
                <Table.Th ta="right">{t('billing.history.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows ?? []).map((r) => (
                <Table.Tr key={`${r.date.date}-${r.plan}-${r.amount}`}>
                  <Table.Td>{formatDate(r.date.date)}</Table.Td>
                  <Table.Td>{periodLabel(t, r.period)}</Table.Td>
                  <Table.Td>{t(`billing.plans.${r.plan}`)}</Table.Td>
                  <Table.Td ta="right">{price(r.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

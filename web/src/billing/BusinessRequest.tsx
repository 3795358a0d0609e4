/**
 * The Business request form (SPEC.md sections 2 and 5) with the shared country list and VAT rules. One
 * request at a time (issue 19): while one is pending the section says so, with its date, instead of the
 * form, and the server refuses a second one with BUSINESS_REQUEST_PENDING.
 */
import {
  Alert,
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconClockHour4 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BusinessRequestInput, businessRequestSchema, findCountry } from '#contracts/countries';
import { businessPeriodsMonths } from '#contracts/plans';
import { errorCodeOf } from '../api';
import type { Answer } from '../api/endpoints';
import type { Profile } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { BuyerFields } from './BuyerFields';
import { reloadPayments, requestBusinessPlan } from './data';
import { formatDate, periodLabel } from './format';

type Pending = Answer<'billing.payments'>['businessRequest'];

type RequestValues = {
  company: string;
  period: string;
  payment_method: 'card' | 'invoice';
  country_code: string;
  vat: string;
  comment: string;
};

export function BusinessRequest({ profile, pending }: { profile: Profile; pending: Pending | undefined }) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('billing.business.title')}
      description={t('billing.business.description')}
      labelId="billing-business"
    >
      {pending ? (
        <Alert
          color="blue"
          icon={<IconClockHour4 />}
          title={t('billing.business.pendingTitle')}
          data-testid="business-pending"
        >
          {t('billing.business.pending', { date: formatDate(pending.date) })}
        </Alert>
      ) : (
        <RequestForm profile={profile} />
      )}
    </Section>
  );
}

function RequestForm({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'de' ? 'de' : 'en';
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
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
      const c = findCountry(v.country_code ?? '');
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

  const valid = businessRequestSchema.safeParse(toInput(form.values)).success;

  async function send(values: RequestValues) {
    setSending(true);
    setFailed(null);
    try {
      const input: BusinessRequestInput = businessRequestSchema.parse(toInput(values));
      const body = new FormData();
      for (const [k, v] of Object.entries(input)) body.append(k, String(v));
      await requestBusinessPlan(body);
      toastSuccess(t('billing.business.sent'));
      form.setValues({ ...values, comment: '' });
      form.resetDirty();
    } catch (error) {
      const code = errorCodeOf(error);
      if (code === 'INVALID_VAT') form.setFieldError('vat', errorText('INVALID_VAT'));
      else if (code === 'BUSINESS_REQUEST_PENDING' || code === 'RATE_LIMITED') {
        setFailed(errorText(code));
        reloadPayments();
      } else setFailed(t('billing.business.failed'));
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={form.onSubmit(send)} noValidate data-testid="business-form">
      <Stack gap="md">
        {failed && <ErrorAlert>{failed}</ErrorAlert>}
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
        <BuyerFields
          countryCode={form.values.country_code ?? ''}
          field={(name) => form.getInputProps(name)}
          required
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
  );
}

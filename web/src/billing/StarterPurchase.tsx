/**
 * Starter by card (SPEC.md sections 2 and 9): the period, the optional invoice details (saved on the
 * profile by the checkout call, and printed on the invoice), then the card provider's checkout.
 */
import { Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { starterPeriods } from '#contracts/billing';
import { vatProblem } from '#contracts/countries';
import type { ErrorCode } from '#contracts/errors';
import { errorCodeOf } from '../api';
import type { Profile } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { errorText } from '../i18n';
import { BuyerFields } from './BuyerFields';
import { startCheckout } from './data';
import { periodLabel, price } from './format';

type DetailValues = { company: string; country_code: string; vat: string };

export function StarterPurchase({ profile, businessActive }: { profile: Profile; businessActive: boolean }) {
  const { t } = useTranslation();
  const [months, setMonths] = useState(String(starterPeriods[0]?.months ?? 1));
  const [paying, setPaying] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const chosen = starterPeriods.find((p) => String(p.months) === months) ?? starterPeriods[0]!;
  const form = useForm<DetailValues>({
    initialValues: {
      company: profile.company ?? '',
      country_code: profile.country ?? '',
      vat: profile.vat ?? '',
    },
    // The server's rule (billing/service.ts startCheckout): a country that requires VAT needs a valid number.
    validate: {
      vat: (vat, v) =>
        v.country_code && vatProblem(v.country_code, vat) === 'INVALID_VAT' ? errorText('INVALID_VAT') : null,
    },
    validateInputOnChange: ['vat', 'country_code'],
  });

  async function pay(values: DetailValues) {
    setPaying(true);
    setErrorCode(null);
    try {
      // The server prices the period from its own table; the amount only names the choice.
      const session = await startCheckout({
        amount: chosen.amount,
        company: values.company,
        country: values.country_code ?? '',
        vat: values.vat,
      });
      window.location.assign(session.url);
    } catch (error) {
      const code = errorCodeOf(error);
      if (code === 'INVALID_VAT') form.setFieldError('vat', errorText('INVALID_VAT'));
      // SPEC.md section 8: a card checkout failure reads as SYSTEM_ERROR.
      else setErrorCode(code === 'PLAN_LIMIT' ? 'PLAN_LIMIT' : 'SYSTEM_ERROR');
      setPaying(false);
    }
  }

  return (
    <Section
      title={t('billing.starter.title')}
      description={t('billing.starter.description')}
      labelId="billing-starter"
    >
      <form onSubmit={form.onSubmit(pay)} noValidate data-testid="starter-form">
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
          {!businessActive && (
            <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Title order={3} size="h5" component="legend" p={0}>
                {t('billing.starter.details')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('billing.starter.detailsHint')}
              </Text>
              <BuyerFields
                countryCode={form.values.country_code ?? ''}
                field={(name) => form.getInputProps(name)}
                required={false}
                testIdPrefix="starter-"
              />
            </Stack>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={paying} disabled={businessActive} data-testid="starter-pay">
              {t('billing.starter.pay', { price: price(chosen.amount) })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

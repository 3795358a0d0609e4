/**
 * Company, country and VAT number, as both billing forms ask for them: the Business request (required,
 * SPEC.md section 5) and the Starter checkout's invoice details (optional; they go on the invoice, and
 * decide the reverse charge). One country list and one VAT hint, from functions/contracts/countries.ts.
 */
import { Select, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryList, findCountry } from '#contracts/countries';

export type BuyerField = 'company' | 'country_code' | 'vat';
type InputProps = ReturnType<UseFormReturnType<Record<BuyerField, string>>['getInputProps']>;

export function BuyerFields({
  countryCode,
  field,
  required,
  testIdPrefix = '',
}: {
  countryCode: string;
  field: (name: BuyerField) => InputProps;
  /** Company and country required (the Business request) or optional (the Starter invoice). */
  required: boolean;
  testIdPrefix?: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'de' ? 'de' : 'en';
  const options = useMemo(
    () =>
      countryList
        .map((c) => ({ value: c.value, label: lang === 'de' ? c.label_de : c.label_en }))
        .sort((a, b) => a.label.localeCompare(b.label, lang)),
    [lang],
  );
  const country = findCountry(countryCode);
  const countryProps = field('country_code');
  const vatHint = !country
    ? undefined
    : country.isVatRequired
      ? t('billing.business.vatRequired')
      : country.isVatOptional
        ? t('billing.business.vatOptional')
        : t('billing.business.vatNotNeeded');
  return (
    <>
      <TextInput
        label={t('billing.business.company')}
        required={required}
        maxLength={100}
        data-testid={`${testIdPrefix}company-input`}
        {...field('company')}
      />
      <Select
        label={t('billing.business.country')}
        placeholder={t('billing.business.countryPlaceholder')}
        required={required}
        clearable={!required}
        searchable
        allowDeselect={!required}
        data={options}
        data-testid={`${testIdPrefix}country-select`}
        clearButtonProps={{ 'aria-label': t('billing.business.clearCountry') }}
        {...countryProps}
        // Empty is no choice: null, so the clear button shows only once a country is chosen.
        value={countryProps.value || null}
      />
      <TextInput
        label={t('billing.business.vat')}
        description={vatHint}
        required={!!country?.isVatRequired}
        maxLength={30}
        data-testid={`${testIdPrefix}vat-input`}
        {...field('vat')}
      />
    </>
  );
}

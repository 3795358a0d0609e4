/** The name/value rows of the integrations (the email's contact details, Jira's extra fields). */
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { PairRows } from '../components/PairRows';

export interface KeyValue {
  name: string;
  value: string;
}

export function KeyValueRows<T extends Record<string, unknown>>({
  form,
  field,
  max,
  labels,
}: {
  form: UseFormReturnType<T>;
  /** The form's list field, e.g. `contactFields`. */
  field: keyof T & string;
  max: number;
  labels: { name: string; value: string; namePlaceholder?: string; add: string; empty: string };
}) {
  const { t } = useTranslation();
  return (
    <PairRows
      form={form}
      field={field}
      max={max}
      testId={`${field}-row`}
      columns={[
        { key: 'name', label: labels.name, placeholder: labels.namePlaceholder, maxLength: 100 },
        { key: 'value', label: labels.value, maxLength: 500 },
      ]}
      texts={{
        add: labels.add,
        empty: labels.empty,
        remove: (index) => t('integrationScreen.removeRow', { index }),
        limit: t('integrationScreen.rowLimit', { count: max }),
      }}
    />
  );
}

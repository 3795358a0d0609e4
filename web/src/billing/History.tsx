/** The transaction history (SPEC.md section 2: date, period, plan, total), with each payment's invoice. */
import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Answer } from '../api/endpoints';
import { Section } from '../components/Section';
import { currentLanguage } from '../i18n';
import { formatDate, periodLabel, price } from './format';

type PaymentRow = Answer<'billing.payments'>['payments'][number];

/** The printable invoice (GET /api/client/invoice/{number}), in the dashboard's language. */
const invoiceHref = (number: string) =>
  `/api/client/invoice/${encodeURIComponent(number)}${currentLanguage() === 'de' ? '?lng=de' : ''}`;

export function History({ rows }: { rows: PaymentRow[] | undefined }) {
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
                <Table.Th>{t('billing.history.invoice')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows ?? []).map((r) => (
                <Table.Tr key={`${r.date.date}-${r.plan}-${r.amount}`}>
                  <Table.Td>{formatDate(r.date.date)}</Table.Td>
                  <Table.Td>{periodLabel(t, r.period)}</Table.Td>
                  <Table.Td>{t(`billing.plans.${r.plan}`)}</Table.Td>
                  <Table.Td ta="right">{price(r.amount)}</Table.Td>
                  <Table.Td>
                    {r.invoice ? (
                      <Anchor
                        href={invoiceHref(r.invoice)}
                        target="_blank"
                        rel="noopener"
                        aria-label={t('billing.history.invoiceLink', { number: r.invoice })}
                      >
                        {r.invoice}
                      </Anchor>
                    ) : (
                      <Text span c="dimmed" size="sm">
                        {t('billing.history.noInvoice')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

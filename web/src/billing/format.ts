/** How the billing screen writes dates, sizes, prices and periods, in the UI language. */
import type { TFunction } from 'i18next';
import { euros } from '#contracts/billing';
import { currentLanguage, displayLocale } from '../i18n';

export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(displayLocale(), { year: 'numeric', month: 'long', day: 'numeric' });

export const formatSize = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;

/** Euros in the UI language's format (10 €, €10). */
export const price = (cents: number) =>
  currentLanguage() === 'de' ? `${euros(cents).slice(1)} €`.replace('.', ',') : euros(cents);

export const periodLabel = (t: TFunction, months: number) =>
  months === 12 ? t('billing.starter.year') : t('billing.starter.months', { count: months });

/**
 * The issue's side column of facts: details (created, reporter, page), the visitor's device and the
 * project's custom fields. Everything the visitor sent is text; the page is a link only for http(s).
 */
import { Anchor, Box, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import type { FiledVia } from '#contracts/triage';
import { Section } from '../components/Section';
import { formatDate } from './model';

export function IssueFacts({ issue, locale }: { issue: IssueAnswer; locale: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Section title={t('issue.details')} labelId="issue-details">
        <Facts
          rows={[
            [t('issue.created'), formatDate(issue.date_created.date, locale)],
            [
              t('issue.reporter'),
              issue.data.username ? (
                <Anchor
                  key="reporter"
                  href={`mailto:${issue.data.username}`}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {issue.data.username}
                </Anchor>
              ) : (
                <Text key="reporter" span c="dimmed" size="sm">
                  {t('issue.anonymous')}
                </Text>
              ),
            ],
            [t('issue.page'), <PageLink key="page" href={issue.data.href} />],
            // How it came in when not through the widget (issue 34): the extension or an API token.
            ...(issue.filedVia
              ? [[t('issue.filedVia'), filedViaText(t, issue.filedVia)] as [string, string]]
              : []),
          ]}
        />
      </Section>
      <Section title={t('issue.device')} labelId="issue-device">
        <Facts
          rows={(
            [
              [t('issue.browser'), known([issue.data.browser, issue.data.browserVersion])],
              [t('issue.os'), known([issue.data.os, issue.data.osVersion])],
              [t('issue.deviceType'), t(`issue.deviceTypes.${issue.data.deviceType ?? 'Desktop'}`)],
              [t('issue.screen'), known([issue.data.screenResolution?.replace('x', ' × ')])],
            ] as [string, string][]
          ).map(([label, value]) => [label, value || t('issue.unknown')])}
        />
      </Section>
      <Section title={t('issue.customFields')} labelId="issue-custom-fields">
        {issue.data.customFields?.length ? (
          <Facts rows={issue.data.customFields.map((f) => [f.name, f.value || '—'])} />
        ) : (
          <Text c="dimmed" size="sm">
            {t('issue.noCustomFields')}
          </Text>
        )}
      </Section>
    </>
  );
}

/** "By Ada Lovelace via extension", "By Ada Lovelace via API token CI". */
function filedViaText(t: TFunction, via: FiledVia): string {
  if (via.kind === 'extension')
    return t('issue.filedViaExtension', { name: via.name || t('triageDetail.activity.someone') });
  return via.name
    ? t('issue.filedViaToken', { name: via.name, token: via.token ?? '' })
    : t('issue.filedViaTokenUnnamed', { token: via.token ?? '' });
}

/** Non-empty parts joined by spaces ("Firefox 130"); empty when nothing is known. */
const known = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

/** Label-value pairs as a definition list, each label above its value: long addresses get the full width. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Stack component="dl" gap="sm" m={0}>
      {rows.map(([label, value], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: custom field names may repeat; rows never reorder.
        <Box key={i}>
          <Text component="dt" size="xs" c="dimmed" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}

/** The reported page: a link only for http(s) addresses (the API accepts no other), never with a referrer. */
function PageLink({ href }: { href: string | undefined }) {
  const { t } = useTranslation();
  if (!href || !/^https?:\/\//i.test(href))
    return (
      <Text span c="dimmed" size="sm">
        {t('issue.unknown')}
      </Text>
    );
  return (
    <Anchor
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      style={{ overflowWrap: 'anywhere' }}
    >
      {href}
    </Anchor>
  );
}

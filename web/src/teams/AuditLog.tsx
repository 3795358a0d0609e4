/**
 * The team's audit log (issue 35): who did what to the team's access, newest first. A table from tablet
 * width, a list on phones (as the projects list), each entry's event told in words of the dashboard's
 * language; filters by event and person, the CSV of the same filters, and paging by the server's cursor.
 */
import { Button, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { displayLocale } from '../i18n';
import type { AuditFilter, AuditRow } from './data';

/** Every event, in the order the contract lists them (the filter's choices). */
export const auditKindList: AuditRow['kind'][] = [
  'member.invited',
  'member.joined',
  'member.role',
  'member.removed',
  'member.left',
  'member.transfer',
  'token.created',
  'token.revoked',
  'extension.connected',
  'extension.revoked',
  'integration.changed',
  'integration.removed',
  'export.csv',
  'privacy.settings',
  'privacy.export',
  'privacy.erase',
  'retention.run',
];

/** A kind as an i18n key: `member.role` → `member_role` (i18next reads `.` as a key separator). */
type Underscored<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${B}` : S;
const key = <K extends AuditRow['kind']>(kind: K) => kind.replace('.', '_') as Underscored<K>;
const when = (iso: string) =>
  new Date(iso).toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'short' });

/** Who did it, as a person reads it: a member's name, "<creator> via API token <name>", or Snag itself. */
export function actorText(t: TFunction, actor: AuditRow['actor']): string {
  if (actor.kind === 'token' && actor.token)
    return t('teams.audit.viaToken', { name: actor.name, token: actor.token });
  if (actor.kind === 'system') return t('teams.audit.system');
  return actor.name;
}

const roleWord = (t: TFunction, role: unknown) =>
  typeof role === 'string' && role ? t(`teams.roles.${role}`, { defaultValue: role }) : '';

/** What happened, in words: the event's sentence with its target and facts. */
export function whatText(t: TFunction, e: AuditRow): string {
  const d = e.detail ?? {};
  const values = {
    target: e.target ?? '',
    role: roleWord(t, d.role),
    from: roleWord(t, d.from),
    to: roleWord(t, d.to),
    prefix: String(d.prefix ?? ''),
    rows: Number(d.rows ?? 0),
    state: d.active ? t('teams.audit.active') : t('teams.audit.inactive'),
  };
  if (e.kind === 'integration.changed' && d.change === 'authorised')
    return t('teams.audit.what_.integration_authorised', values);
  return t(`teams.audit.what_.${key(e.kind)}`, values);
}

/** The facts beside the sentence: the project, and the tokens a membership change revoked. */
function Facts({ entry, projects }: { entry: AuditRow; projects: Map<string, string> }) {
  const { t } = useTranslation();
  const revoked = Number(entry.detail?.tokensRevoked ?? 0);
  const project = entry.projectId ? (projects.get(entry.projectId) ?? entry.projectId) : null;
  return (
    <>
      {project && (
        <Text size="xs" c="dimmed">
          {t('teams.audit.project', { project })}
        </Text>
      )}
      {revoked > 0 && (
        <Text size="xs" c="dimmed">
          {t('teams.audit.tokensRevoked', { count: revoked })}
        </Text>
      )}
    </>
  );
}

export function AuditFilters({
  filter,
  people,
  csvHref,
  onChange,
}: {
  filter: AuditFilter;
  people: { value: string; label: string }[];
  csvHref: string;
  onChange: (next: AuditFilter) => void;
}) {
  const { t } = useTranslation();
  const kinds = auditKindList.map((k) => ({ value: k, label: t(`teams.audit.kinds.${key(k)}`) }));
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="group" aria-label={t('teams.audit.filters')}>
      <Select
        label={t('teams.audit.kind')}
        placeholder={t('teams.audit.anyKind')}
        data={kinds}
        value={filter.kind ?? null}
        clearable
        searchable
        onChange={(v) => onChange({ ...filter, kind: (v ?? undefined) as AuditFilter['kind'] })}
        w={{ base: '100%', sm: 240 }}
        data-testid="audit-kind"
      />
      <Select
        label={t('teams.audit.actor')}
        placeholder={t('teams.audit.anyActor')}
        data={people}
        value={filter.actor ?? null}
        clearable
        searchable
        onChange={(v) => onChange({ ...filter, actor: v ?? undefined })}
        w={{ base: '100%', sm: 240 }}
        data-testid="audit-actor"
      />
      <Button
        component="a"
        href={csvHref}
        download
        variant="default"
        data-testid="audit-export"
        title={t('teams.audit.exportHint')}
      >
        {t('teams.audit.export')}
      </Button>
    </Group>
  );
}

export function AuditEntries({
  entries,
  filtered,
  projects,
}: {
  entries: AuditRow[];
  filtered: boolean;
  projects: Map<string, string>;
}) {
  const { t } = useTranslation();
  const wide = useMediaQuery('(min-width: 48em)', true);
  if (entries.length === 0)
    return (
      <Text c="dimmed" data-testid="audit-empty">
        {filtered ? t('teams.audit.emptyFiltered') : t('teams.audit.empty')}
      </Text>
    );
  if (!wide)
    return (
      <Stack
        gap="sm"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('teams.audit.tableLabel')}
      >
        {entries.map((e) => (
          <Paper component="li" key={e.id} withBorder radius="md" p="sm" data-testid="audit-entry">
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {whatText(t, e)}
              </Text>
              <Text size="xs">
                {actorText(t, e.actor)} · <time dateTime={e.at}>{when(e.at)}</time>
              </Text>
              <Facts entry={e} projects={projects} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Table
        verticalSpacing="sm"
        horizontalSpacing="md"
        layout="fixed"
        aria-label={t('teams.audit.tableLabel')}
      >
        <Table.Thead bg="var(--mantine-color-gray-0)">
          <Table.Tr>
            <Table.Th w={190}>{t('teams.audit.when')}</Table.Th>
            <Table.Th w={200}>{t('teams.audit.who')}</Table.Th>
            <Table.Th w={190}>{t('teams.audit.what')}</Table.Th>
            <Table.Th>{t('teams.audit.details')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-testid="audit-entry">
              <Table.Td>
                <Text size="sm">
                  <time dateTime={e.at}>{when(e.at)}</time>
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {actorText(t, e.actor)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`teams.audit.kinds.${key(e.kind)}`)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {whatText(t, e)}
                </Text>
                <Facts entry={e} projects={projects} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** Newer / Older: the cursors of the pages seen so far, so Newer goes back without a second query kind. */
export function AuditPager({ newer, older }: { newer: (() => void) | null; older: (() => void) | null }) {
  const { t } = useTranslation();
  if (!newer && !older) return null;
  return (
    <Group component="nav" aria-label={t('teams.audit.pageLabel')} gap="sm">
      <Button variant="default" disabled={!newer} onClick={() => newer?.()} data-testid="audit-newer">
        {t('teams.audit.newer')}
      </Button>
      <Button variant="default" disabled={!older} onClick={() => older?.()} data-testid="audit-older">
        {t('teams.audit.older')}
      </Button>
    </Group>
  );
}

/**
 * /profile/team/audit (issue 35): the team's audit log, for OWNER and ADMIN. Filters by event and person,
 * the CSV of the same filters, paging; the parts live in web/src/teams/AuditLog.tsx.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { currentLanguage } from '../i18n';
import { paths } from '../paths';
import { useProjects } from '../projects/data';
import { AuditEntries, AuditFilters, AuditPager, actorText } from '../teams/AuditLog';
import { type AuditFilter, auditCsvHref, useAudit, useCurrentTeam, useTeam } from '../teams/data';
import '../teams/texts';

export default function AuditScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.audit'));
  const { team } = useCurrentTeam();
  const [filter, setFilter] = useState<Omit<AuditFilter, 'cursor'>>({});
  // The cursors of the pages before this one: Newer steps back through them.
  const [trail, setTrail] = useState<(string | undefined)[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const { data } = useAudit(team?.id ?? null, { ...filter, cursor });
  const { data: detail } = useTeam(team?.id);
  const { data: list } = useProjects();
  const projects = useMemo(
    () => new Map((list?.websites ?? []).map((p) => [p.uuid, p.name] as const)),
    [list],
  );
  // The people to filter by: the team's members now, and whoever acted on this page (a token, a former member).
  const people = useMemo(() => {
    const found = new Map<string, string>();
    for (const m of detail?.members ?? []) {
      found.set(m.userId, `${m.firstName} ${m.lastName}`.trim() || (m.username ?? m.userId));
    }
    for (const e of data?.entries ?? [])
      if (e.actor.id && !found.has(e.actor.id)) found.set(e.actor.id, actorText(t, e.actor));
    return [...found].map(([value, label]) => ({ value, label }));
  }, [detail, data, t]);
  if (!team || !data) return <PageLoader />;

  const change = (next: AuditFilter) => {
    setFilter({ kind: next.kind, actor: next.actor });
    setTrail([]);
    setCursor(undefined);
  };
  const older = data.cursor
    ? () => {
        setTrail([...trail, cursor]);
        setCursor(data.cursor ?? undefined);
      }
    : null;
  const newer = trail.length
    ? () => {
        setCursor(trail[trail.length - 1]);
        setTrail(trail.slice(0, -1));
      }
    : null;

  return (
    <Stack gap="lg" maw={1100} mx="auto" data-testid="audit-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('teams.audit.title')}
        </Title>
        <Text c="dimmed">{t('teams.audit.subtitle', { team: team.name })}</Text>
        <Text size="sm">
          <Anchor component={Link} to={paths.team}>
            {t('teams.audit.back')}
          </Anchor>
        </Text>
      </Stack>
      <AuditFilters
        filter={filter}
        people={people}
        csvHref={auditCsvHref(team.id, filter, currentLanguage())}
        onChange={change}
      />
      <AuditEntries
        entries={data.entries}
        filtered={Boolean(filter.kind || filter.actor)}
        projects={projects}
      />
      <AuditPager newer={newer} older={older} />
    </Stack>
  );
}

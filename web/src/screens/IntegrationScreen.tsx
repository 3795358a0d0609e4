/**
 * /profile/integrations/{id}/(email|gitlab|jira|slack|asana|webhooks) (issue 11, SPEC.md sections 2, 4,
 * 5 and 6): one tab per integration with its settings, the sync summary of new and failed tickets, and
 * for plans without integrations the not-available message with an upgrade link (email stays open).
 * An unknown or foreign project goes back to the dashboard.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconClock, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { IntegrationName } from '#contracts/integrations';
import { useProfile } from '../accounts/data';
import { PageLoader } from '../components/PageLoader';
import { SectionTabs } from '../components/SectionTabs';
import { StateCard } from '../components/StateCard';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { FakeNote } from '../integrations/FakeNote';
import { IntegrationSettings } from '../integrations/IntegrationSettings';
import { isAvailable, syncState, viewOf } from '../integrations/model';
import { SyncSummary } from '../integrations/SyncSummary';
import { integrationNames, paths } from '../paths';
import { useProject } from '../projects/data';
import { ProjectHeader } from '../projects/ProjectHeader';
import '../integrations/texts';

export default function IntegrationScreen({ name }: { name: IntegrationName }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { data } = useProject(id);
  const { data: profile } = useProfile();
  useDocumentTitle(`${t('screens.integrations')} · ${t(`integrations.${name}`)}`);
  if (!data || !profile || !id) return <PageLoader />;
  const view = viewOf(data.integrations, name);
  const available = isAvailable(name, profile.settings?.integrations, view);

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <ProjectHeader project={data.website} title={t('screens.integrations')} />
      <SectionTabs
        value={name}
        sections={integrationNames}
        label={t('integrationScreen.tabs')}
        labelOf={(n) => t(`integrations.${n}`)}
        onChange={(n) => navigate(paths.integrations(id, n))}
      />
      {/* Only the local stack with its vendor fakes sets `fake`. */}
      {view?.fake && <FakeNote name={name} fake={view.fake} />}
      {!available || !view ? (
        <StateCard
          testId="integration-unavailable"
          icon={<IconLock size={30} />}
          title={errorText('INTEGRATION_NOT_AVAILABLE')}
          text={t('integrationScreen.upgradeText', { name: t(`integrations.${name}`) })}
          actions={
            <Button component={Link} to={paths.billing}>
              {t('integrationScreen.upgrade')}
            </Button>
          }
        />
      ) : (
        <>
          {/* Keyed by project and integration: a form keeps its state (e.g. the vendor's lists) across saves. */}
          <IntegrationSettings key={`${id}:${view.name}`} projectId={id} view={view} />
          {/* Information, not an alarm: Mantine's Alert is role="alert" by default. */}
          <Alert variant="light" color="gray" icon={<IconClock size={18} />} role="note">
            <Text size="sm">{t('integrationScreen.delay')}</Text>
          </Alert>
          <SyncSummary key={`${id}:${name}`} projectId={id} name={name} state={syncState(view)} />
        </>
      )}
    </Stack>
  );
}

/**
 * /profile/team/tokens (issue 25): the team's API tokens for the public REST API and the MCP server, for
 * OWNER and ADMIN. Creating one shows it once; the list shows what each may do and when it was last used.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { paths } from '../paths';
import { useCurrentTeam, useTokens } from '../teams/data';
import { TokenForm } from '../teams/TokenForm';
import { TokenList } from '../teams/TokenList';
import '../teams/texts';

export default function TokensScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.tokens'));
  const { team } = useCurrentTeam();
  const { data } = useTokens(team?.id ?? null);
  if (!team || !data) return <PageLoader />;
  return (
    <Stack gap="xl" maw={960} mx="auto" data-testid="tokens-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('teams.tokens.title')}
        </Title>
        <Text c="dimmed">{t('teams.tokens.subtitle', { team: team.name })}</Text>
        <Text size="sm">
          <Anchor href="/docs/api">{t('teams.tokens.reference')}</Anchor>
          {' · '}
          <Anchor component={Link} to={paths.team}>
            {t('teams.tokens.back')}
          </Anchor>
        </Text>
      </Stack>
      <TokenForm teamId={team.id} />
      <TokenList teamId={team.id} tokens={data.tokens} />
    </Stack>
  );
}

/** What each role may do, one line each (issue 22), so a role select is chosen knowingly. */
import { Box, Group, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { roles } from '#contracts/teams';
import { RoleBadge } from './RoleBadge';

export function RoleRights() {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={600} mb={6} id="team-role-rights">
        {t('teams.members.rightsTitle')}
      </Text>
      <List spacing={6} size="sm" listStyleType="none" aria-labelledby="team-role-rights">
        {roles.map((role) => (
          <List.Item key={role}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {/* One width for every badge, so the lines start together. */}
              <Box w={76} style={{ flexShrink: 0 }}>
                <RoleBadge role={role} />
              </Box>
              <Text size="sm" c="dimmed">
                {t(`teams.roleRights.${role}`)}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </div>
  );
}

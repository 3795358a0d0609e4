/** A role as a small badge; the colour only repeats the word (the text says it all). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Role } from './model';

const colours: Record<Role, string> = { OWNER: 'brand', ADMIN: 'indigo', MEMBER: 'teal', GUEST: 'gray' };

export function RoleBadge({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" color={colours[role]} tt="none" style={{ flexShrink: 0 }}>
      {t(`teams.roles.${role}`)}
    </Badge>
  );
}

/**
 * The `@` completion's listbox under the composer: options by id for the textarea's
 * `aria-activedescendant`, chosen with the mouse too (mouse down keeps the textarea's focus and caret).
 */
import { Paper, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fullName, type Person } from './detail-model';

export const mentionOptionId = (listId: string, i: number) => `${listId}-option-${i}`;

export function MentionList({
  id,
  people,
  active,
  onPick,
}: {
  id: string;
  people: readonly Person[];
  active: number;
  onPick: (p: Person) => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      shadow="md"
      radius="md"
      p={4}
      role="listbox"
      id={id}
      aria-label={t('triageDetail.composer.mentions')}
      style={{ position: 'absolute', zIndex: 20, left: 0, right: 0, maxWidth: 360 }}
    >
      {people.map((p, i) => (
        <UnstyledButton
          key={p.userId}
          component="div"
          role="option"
          id={mentionOptionId(id, i)}
          aria-selected={i === active}
          tabIndex={-1}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(p);
          }}
          px="sm"
          py={6}
          w="100%"
          style={{
            display: 'block',
            borderRadius: 6,
            background: i === active ? 'var(--mantine-color-brand-light)' : undefined,
            outline: i === active ? '2px solid var(--mantine-color-brand-filled)' : undefined,
          }}
        >
          <Text size="sm" fw={i === active ? 600 : 400}>
            {fullName(p)}
          </Text>
        </UnstyledButton>
      ))}
    </Paper>
  );
}

/**
 * The issue list's search box: typing searches after a short pause, Enter at once, and the clear button
 * empties it. It follows the address when back and forward change the search under it.
 */
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '#contracts/limits';

export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // Back and forward change the address under the box: follow it.
  useEffect(() => setText(value), [value]);
  const commit = useDebouncedCallback((next: string) => {
    if (next.trim() !== value.trim()) onSearch(next);
  }, 350);
  return (
    <TextInput
      w={{ base: '100%', xs: 360 }}
      value={text}
      maxLength={limits.issueSearchMax}
      aria-label={t('issueList.searchLabel')}
      placeholder={t('issueList.searchPlaceholder')}
      leftSection={<IconSearch size={16} />}
      rightSection={
        text ? (
          <CloseButton
            size="sm"
            aria-label={t('issueList.clearSearch')}
            onClick={() => {
              setText('');
              onSearch('');
            }}
          />
        ) : null
      }
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onSearch(text);
      }}
    />
  );
}

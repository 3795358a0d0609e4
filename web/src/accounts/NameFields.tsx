/**
 * First and last name, side by side (stacked on phones): the same fields and rules (SPEC.md section 5,
 * max 50, required) on registration and in the profile settings.
 */
import { SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { limits } from '#contracts/limits';

interface NameFieldsProps<T extends { firstName: string; lastName: string }> {
  form: UseFormReturnType<T>;
  labels: { firstName: string; lastName: string };
  placeholders?: { firstName: string; lastName: string };
}

export function NameFields<T extends { firstName: string; lastName: string }>({
  form,
  labels,
  placeholders,
}: NameFieldsProps<T>) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      <TextInput
        label={labels.firstName}
        placeholder={placeholders?.firstName}
        autoComplete="given-name"
        maxLength={limits.nameMax}
        required
        key={form.key('firstName')}
        {...form.getInputProps('firstName')}
      />
      <TextInput
        label={labels.lastName}
        placeholder={placeholders?.lastName}
        autoComplete="family-name"
        maxLength={limits.nameMax}
        required
        key={form.key('lastName')}
        {...form.getInputProps('lastName')}
      />
    </SimpleGrid>
  );
}

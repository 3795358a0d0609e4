/** The on/off settings of the project screens: a labelled switch bound to a boolean form field. */
import { Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** `toggle(name, label, hint)` for the boolean fields of `form`. */
export function switchesFor<T extends Record<string, unknown>>(form: UseFormReturnType<T>) {
  return (name: keyof T & string, label: string, hint: string) => (
    <Switch
      label={label}
      description={hint}
      size="md"
      key={form.key(name)}
      {...form.getInputProps(name, { type: 'checkbox' })}
    />
  );
}

/** The on/off settings of the project screens: a labelled switch bound to a boolean form field. */
import { Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

/**
 * `toggle(name, label, hint)` for the boolean fields of `form`. With `positive`, the switch shows the
 * feature a `widgetDisable…` field turns off ('Screenshots: On' is stored as `widgetDisableScreenshot:
 * false`), so no switch reads as a double negative while SPEC's fields stay as they are.
 */
export function useSwitches<T extends Record<string, unknown>>(form: UseFormReturnType<T>) {
  const { t } = useTranslation();
  return (name: keyof T & string, label: string, hint: string, { positive = false } = {}) => {
    const input = form.getInputProps(name, { type: 'checkbox' });
    return (
      <Switch
        label={label}
        description={hint}
        size="md"
        onLabel={t('onboarding.on')}
        offLabel={t('onboarding.off')}
        key={form.key(name)}
        {...input}
        {...(positive
          ? {
              checked: !input.checked,
              onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
                form.setFieldValue(name, !event.currentTarget.checked as never),
            }
          : {})}
      />
    );
  };
}

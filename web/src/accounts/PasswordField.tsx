/** A password input with a labelled show/hide toggle (SPEC.md section 2: "can be shown or hidden"). */
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '#contracts/limits';

export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      maxLength={limits.loginInputMax}
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        'aria-label': visible ? t('login.hidePassword') : t('login.showPassword'),
      }}
    />
  );
}

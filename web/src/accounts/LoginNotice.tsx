/**
 * The notice a login address carries (SPEC.md section 2: registered, invalid code, password reset): read
 * once, then its parameters leave the address while the notice stays.
 */
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { type LoginNotice, loginNotice, stripLoginNoticeParams } from './login-model';

/** The notice of the address the login screen opened with, whose parameters are then removed. */
export function useLoginNotice(): LoginNotice | null {
  const navigate = useNavigate();
  const location = useLocation();
  // Read once: the notice stays while its parameters leave the address (SPEC: "then removed").
  const [notice] = useState<LoginNotice | null>(() => loginNotice(location.search));
  useEffect(() => {
    const rest = stripLoginNoticeParams(location.search);
    if (rest !== location.search) navigate({ pathname: location.pathname, search: rest }, { replace: true });
  }, [location.pathname, location.search, navigate]);
  return notice;
}

export function LoginNoticeAlert({ notice }: { notice: LoginNotice }) {
  const { t } = useTranslation();
  const bad = notice === 'invalidCode';
  return (
    <Alert
      color={bad ? 'red' : 'teal'}
      variant="light"
      icon={bad ? <IconAlertCircle size={18} /> : <IconCircleCheck size={18} />}
      role="status"
    >
      {t(`login.notice.${notice}`)}
    </Alert>
  );
}

/** An inline error message for a failed call, announced to screen readers. */
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {children}
    </Alert>
  );
}

/** A confirmation message (notice after an action), announced politely. */
export function SuccessAlert({ children }: { children: ReactNode }) {
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
      {children}
    </Alert>
  );
}

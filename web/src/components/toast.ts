/** Toasts (SPEC.md section 8 success messages). Duration comes from the <Notifications> defaults (3 s). */
import { notifications } from '@mantine/notifications';

export function toastSuccess(message: string): void {
  notifications.show({ message, color: 'teal', withBorder: true });
}

export function toastError(message: string): void {
  notifications.show({ message, color: 'red', withBorder: true });
}

/** Toasts (SPEC.md section 8 success messages), shown where Toasts.tsx places them, for 3 s. */
import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n';

/** The toast's close button is named (axe button-name: Mantine leaves the icon button without a name). */
const closeButtonProps = () => ({ 'aria-label': i18n.t('app.closeToast') });

export function toastSuccess(message: string): void {
  notifications.show({ message, color: 'teal', withBorder: true, closeButtonProps: closeButtonProps() });
}

export function toastError(message: string): void {
  notifications.show({ message, color: 'red', withBorder: true, closeButtonProps: closeButtonProps() });
}

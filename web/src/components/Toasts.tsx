/**
 * Where toasts show (SPEC.md section 9: 3000 ms, entering in 200 ms): a labelled landmark, so a toast is
 * never content outside every landmark (axe `region`) and a screen reader can find the messages. Rendered
 * in place rather than in Mantine's portal, which sits in no landmark; the containers are fixed, so the
 * place in the page changes nothing on screen.
 */
import { Notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { limits } from '#contracts/limits';

/** Mantine has one duration for both ways. */
const toastEnterMs = 200;

export function Toasts() {
  const { t } = useTranslation();
  return (
    <section aria-label={t('app.notifications')}>
      <Notifications
        position="top-right"
        autoClose={limits.toastMs}
        transitionDuration={toastEnterMs}
        withinPortal={false}
      />
    </section>
  );
}

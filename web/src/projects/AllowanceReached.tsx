/**
 * At the plan's project allowance the create screen has no form to fill in vain: it says so, with the way
 * to more projects (billing) or back (docs/decisions-web.md "Projects over the allowance").
 */
import { Button, Group } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { StateCard } from '../components/StateCard';
import { paths } from '../paths';

export function AllowanceReached({ allowed }: { allowed: number }) {
  const { t } = useTranslation();
  return (
    <StateCard
      testId="project-allowance"
      icon={<IconStack2 size={32} stroke={1.5} />}
      title={t('onboarding.allowanceTitle')}
      text={t('onboarding.allowanceText', { count: allowed })}
      actions={
        <Group justify="center" gap="sm">
          <Button variant="default" component={Link} to={paths.profile}>
            {t('onboarding.backToProjects')}
          </Button>
          <Button component={Link} to={paths.billing}>
            {t('onboarding.seePlans')}
          </Button>
        </Group>
      }
    />
  );
}

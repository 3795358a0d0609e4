/**
 * The Widget screen's form (SPEC.md sections 3 and 6): the appearance values, their checks, and Save.
 * Settings the plan does not offer are not on the screen, so they are not sent either.
 */
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import type { PlanSettings } from '#contracts/plans';
import type { WidgetSettings } from '#contracts/schemas';
import type { ProjectSettings } from '../api/types';
import { toastSuccess } from '../components/toast';
import { showSaveError } from '../forms/validate';
import { saveProject } from './data';
import { type Appearance, appearanceOf, isHexColor } from './model';
import { textRules } from './WidgetTexts';

/** The plan-gated widget features this plan offers. */
export interface WidgetFeaturesOffered {
  attachments: boolean;
  videos: boolean;
  /** Issue 33: session replay and its text masking. */
  replays: boolean;
  branding: boolean;
}

export function useWidgetForm(website: ProjectSettings, plan: PlanSettings | undefined) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<Appearance>({
    mode: 'controlled',
    initialValues: appearanceOf(website.data),
    validate: {
      widgetColor: (value) => (isHexColor(value) ? null : t('widget.colorInvalid')),
      widgetText: (value) =>
        value.trim() === ''
          ? t('validation.required')
          : value.trim().length > limits.widgetTextMax
            ? t('validation.invalid')
            : null,
      widgetTexts: textRules(() => t('validation.invalid')),
      reporterSenderName: (value) =>
        value.trim().length > limits.reporterSenderNameMax || /["<>\\]/.test(value)
          ? t('widget.senderNameInvalid', { max: limits.reporterSenderNameMax })
          : null,
    },
  });
  const offered: WidgetFeaturesOffered = {
    attachments: plan?.attachments === true,
    videos: plan?.videos === true,
    replays: plan?.replays === true,
    branding: plan?.brandingRemoval === true,
  };

  async function save(next: Appearance) {
    setSaving(true);
    setErrorCode(null);
    // Settings the plan does not offer are not on the screen, so they are not sent either.
    const data: Partial<WidgetSettings> = {
      ...next,
      widgetText: next.widgetText.trim(),
      reporterSenderName: next.reporterSenderName.trim(),
    };
    if (!offered.attachments) delete data.widgetDisableUpload;
    if (!offered.videos) delete data.widgetDisableVideo;
    if (!offered.replays) {
      delete data.widgetReplay;
      delete data.widgetReplayMaskText;
    }
    if (!offered.branding) delete data.widgetDisableBranding;
    try {
      const saved = await saveProject(website.uuid, { data });
      const fresh = appearanceOf(saved.website.data);
      form.setInitialValues(fresh);
      form.setValues(fresh);
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return { form, offered, saving, errorCode, save };
}

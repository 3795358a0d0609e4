/**
 * The form's rules, the same as the server's `reportSchema` (functions/contracts/schemas.ts), so what the
 * form accepts the server accepts: a description of 1 to 2,000 characters after trimming, and an email
 * that is empty or matches zod's email pattern (copied here: the widget does not bundle zod).
 */
import { reportLimits } from '#contracts/intake';
import type { MessageKey } from '../i18n';

/** zod v4's default email pattern (`z.email()`); test/unit/widget/validate.test.ts keeps them in step. */
export const emailPattern =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export interface FormErrors {
  description?: MessageKey;
  email?: MessageKey;
}

export function validateForm(form: { description: string; email: string }): FormErrors {
  const errors: FormErrors = {};
  const description = form.description.trim();
  if (!description) errors.description = 'descriptionRequired';
  else if (description.length > reportLimits.descriptionMax) errors.description = 'descriptionTooLong';
  const email = form.email.trim();
  if (email && (email.length > reportLimits.emailMax || !emailPattern.test(email)))
    errors.email = 'emailInvalid';
  return errors;
}

export const isValid = (errors: FormErrors) => !errors.description && !errors.email;

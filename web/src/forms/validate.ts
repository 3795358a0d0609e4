/**
 * Form validation from the shared zod schemas (functions/contracts/schemas.ts), so the dashboard and the API
 * apply the same rules. Failures become messages: an empty field reads "required", a failure with its own
 * catalogue code shows that code's text, anything else a generic "check this value".
 */
import type { z } from 'zod';
import { type ErrorCode, type ErrorContext, isErrorCode } from '#contracts/errors';
import { fieldErrors } from '#contracts/schemas';
import { describeExpected } from '#contracts/validation';
import { ApiError, errorCodeOf } from '../api/client';
import { errorText, i18n } from '../i18n';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function messageFor(code: ErrorCode, value: unknown): string {
  if (isEmpty(value)) return i18n.t('validation.required');
  if (code === 'INVALID_PARAMETERS') return i18n.t('validation.invalid');
  return errorText(code);
}

/** A Mantine `useForm` validate function for `schema`; messages are looked up in the language of the moment. */
export function schemaValidator<T extends Record<string, unknown>>(schema: z.ZodType) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const [path, code] of Object.entries(fieldErrors(result.error))) {
      errors[path] = messageFor(code as ErrorCode, values[path.split('.')[0] ?? '']);
    }
    return errors;
  };
}

/**
 * Messages for the inputs an API refusal names (`fields` of the error envelope; paths such as `url`,
 * `widgetColor` or `customFields.0.selector`, which are also the form's paths): a code's own text, else
 * what the API says the field expects (`expected`, in the language the call was made in).
 */
export function apiFieldErrors(
  fields: Record<string, string> | undefined,
  pathOf: (apiPath: string) => string = (path) => path,
  expected: Record<string, string> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, code] of Object.entries(fields ?? {})) {
    errors[pathOf(path)] =
      isErrorCode(code) && code !== 'INVALID_PARAMETERS'
        ? errorText(code)
        : (expected[path] ?? i18n.t('validation.invalid'));
  }
  return errors;
}

/**
 * A refusal as a form's one error line: the code's text, and for INVALID_PARAMETERS what the API said
 * each refused field expects.
 */
export function refusalText(error: unknown, context?: ErrorContext): string {
  const code = errorCodeOf(error);
  const expected = error instanceof ApiError ? error.details.expected : undefined;
  const text = errorText(code, context);
  if (code !== 'INVALID_PARAMETERS' || !expected || Object.keys(expected).length === 0) return text;
  return `${text}: ${describeExpected(expected)}`;
}

/**
 * Shows a failed save where it belongs: on the inputs the API names (`pathOf` turns the API's path into
 * the form's, where the two differ), or else as the form's one error message (`showCode`).
 */
export function showSaveError(
  form: { setErrors: (errors: Record<string, string>) => void },
  error: unknown,
  showCode: (code: ErrorCode) => void,
  pathOf?: (apiPath: string) => string,
): void {
  const fields =
    error instanceof ApiError ? apiFieldErrors(error.fields, pathOf, error.details.expected) : {};
  if (Object.keys(fields).length > 0) form.setErrors(fields);
  else showCode(errorCodeOf(error));
}

/** The application's API client instance, bound to the UI language. */
import { currentLanguage } from '../i18n';
import { createApiClient } from './client';

export { ApiError, errorCodeOf } from './client';
export const api = createApiClient({ language: currentLanguage });

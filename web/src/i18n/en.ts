/**
 * English UI strings: the reference catalogue. Every user-facing string of the dashboard lives here and
 * in `de.ts` (same keys; a unit test checks). Error texts are not here: they come from the shared error
 * catalogue (`functions/shared/errors.ts`) through `errorText`.
 */
export const en = {
  app: {
    name: 'Snag',
    tagline: 'Website feedback and bug reports',
    loading: 'Loading…',
    homeLink: 'Snag home page',
  },
  language: {
    label: 'Language',
    en: 'English',
    de: 'Deutsch',
  },
  cookie: {
    text: 'We use cookies to keep you signed in and to remember your preferences.',
    privacy: 'Privacy policy',
    accept: 'Accept',
  },
  validation: {
    required: 'This field is required',
    invalid: 'Please check this value',
    email: 'Please enter a valid email address',
  },
  comingSoon: {
    title: 'Coming soon',
    body: 'This part of Snag is being built and will be available shortly.',
    back: 'Back to dashboard',
  },
  login: {
    title: 'Sign in to Snag',
    subtitle: 'Welcome back! Enter your details to continue.',
    email: 'Email',
    emailPlaceholder: 'you@company.com',
    password: 'Password',
    passwordPlaceholder: 'Your password',
    submit: 'Sign in',
    forgot: 'Forgot password?',
    noAccount: 'No account yet?',
    register: 'Create an account',
    or: 'or',
    google: 'Continue with Google',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    notice: {
      registered: 'Your account is confirmed. You can sign in now.',
      invalidCode: 'Invalid confirmation link',
      reset: 'Your password has been changed. Sign in with the new password.',
    },
  },
  screens: {
    registration: 'Create your account',
    confirmRegistration: 'Confirm your email',
    confirmEmail: 'Confirming your email',
    reset: 'Reset your password',
    resetVerification: 'Choose a new password',
    dashboard: 'Projects',
    profileEdit: 'Profile settings',
    billing: 'Billing',
    createProject: 'New project',
    issues: 'New issues',
    issue: 'Issue',
    resolved: 'Resolved issues',
    integrations: 'Integrations',
    widget: 'Widget appearance',
    configuration: 'Project configuration',
  },
  integrations: {
    email: 'Email',
    gitlab: 'GitLab',
    jira: 'Jira',
    slack: 'Slack',
    asana: 'Asana',
    webhooks: 'Webhooks',
  },
  configuration: {
    installation: 'Installation',
    custom_fields: 'Custom fields',
    general: 'General',
  },
  nav: {
    dashboard: 'Dashboard',
    settings: 'Settings',
    billing: 'Billing',
    logout: 'Log out',
    profile: 'Profile',
    profileSettings: 'Profile settings',
    account: 'Account menu',
    openMenu: 'Open navigation',
    mainNavigation: 'Main navigation',
  },
  sidebar: {
    label: 'Project navigation',
    project: 'Project',
    selectProject: 'Select a project',
    noProjects: 'No projects yet',
    dashboard: 'Dashboard',
    feedback: 'Feedback',
    archive: 'Archive',
    integrations: 'Integrations',
    widget: 'Widget',
    configuration: 'Configuration',
    collapse: 'Collapse sidebar',
    expand: 'Expand sidebar',
  },
} as const;

/** The shape every language catalogue must have: the same keys as English, any string values. */
type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Catalogue = Widen<typeof en>;

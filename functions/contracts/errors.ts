/**
 * The one error catalogue (SPEC.md section 8). Every error the API returns is one of these codes; the
 * dashboard translates by code, the API answers with the message in the caller's language (`lng=de`).
 *
 * Some SPEC messages depend on the screen (SYSTEM_ERROR reads 'Registration failed' on registration and
 * 'Delete failed' on profile deletion). A route names its `context` in the route table and the message
 * comes from `contextMessages`, so handlers only ever throw a code.
 */

export type Lang = 'en' | 'de';
type Text = Record<Lang, string>;

interface CatalogueEntry {
  /** HTTP status of the response carrying this code. */
  status: number;
  msg: Text;
}

export const errorCatalogue = {
  // Login (SPEC 8)
  ACCESS_DENIED: {
    status: 401,
    msg: { en: 'Incorrect username or password', de: 'Benutzername oder Passwort ist falsch' },
  },
  ACCESS_DISABLED: {
    status: 403,
    msg: {
      en: 'Username blocked after too many failed login attempts',
      de: 'Benutzer nach zu vielen fehlgeschlagenen Anmeldeversuchen gesperrt',
    },
  },
  CONFIRMATION_REQUIRED: {
    status: 403,
    msg: { en: 'Email has not been confirmed', de: 'E-Mail-Adresse wurde noch nicht bestätigt' },
  },
  SYSTEM_ERROR: {
    status: 500,
    msg: { en: 'Service is not available at the moment', de: 'Der Dienst ist momentan nicht verfügbar' },
  },
  // Registration
  INVALID_PARAMETERS: {
    status: 400,
    msg: { en: 'Invalid parameters', de: 'Ungültige Parameter' },
  },
  USER_EXISTS: {
    status: 409,
    msg: {
      en: 'User with this email already exists',
      de: 'Ein Benutzer mit dieser E-Mail existiert bereits',
    },
  },
  USER_PASSWORD_LENGTH: {
    status: 400,
    msg: {
      en: 'Password must be at least 6 characters',
      de: 'Das Passwort muss mindestens 6 Zeichen lang sein',
    },
  },
  INVALID_EMAIL: {
    status: 400,
    msg: { en: 'Please check your email address', de: 'Bitte überprüfen Sie Ihre E-Mail-Adresse' },
  },
  // Reset and confirmation
  RESET_NOT_POSSIBLE: {
    status: 409,
    msg: {
      en: 'Password reset is not possible for the current user',
      de: 'Für diesen Benutzer ist kein Zurücksetzen des Passworts möglich',
    },
  },
  RESTORE_NOT_POSSIBLE: {
    status: 400,
    msg: { en: 'Link is invalid or expired', de: 'Der Link ist ungültig oder abgelaufen' },
  },
  INVALID_CODE: {
    status: 400,
    msg: { en: 'Invalid confirmation link', de: 'Ungültiger Bestätigungslink' },
  },
  // Profile and password
  INVALID_PASSWORD: {
    status: 400,
    msg: { en: 'Invalid password', de: 'Ungültiges Passwort' },
  },
  INVALID_DOMAIN: {
    status: 400,
    msg: {
      en: 'Please enter a domain such as example.com',
      de: 'Bitte geben Sie eine Domain wie example.com ein',
    },
  },
  // Projects, integrations, billing (server codes SPEC leaves open: docs/decisions.md)
  PLAN_LIMIT: {
    status: 403,
    msg: { en: 'Your plan does not include this feature', de: 'Ihr Tarif enthält diese Funktion nicht' },
  },
  INTEGRATION_NOT_AVAILABLE: {
    status: 403,
    msg: {
      en: 'The integration is currently not available',
      de: 'Die Integration ist derzeit nicht verfügbar',
    },
  },
  /** What the client gave a vendor was refused (host, project, OAuth state): the client's to fix, so a 4xx. */
  AUTHORIZATION_FAILED: {
    status: 400,
    msg: { en: 'Authorization failed', de: 'Autorisierung fehlgeschlagen' },
  },
  /** GitLab or Jira answered 401/403 to the token (and username) the client entered, or Linear refused the API key. */
  TOKEN_REFUSED: {
    status: 400,
    msg: {
      en: 'The token was refused. Please check it (and for Jira the username) and try again',
      de: 'Das Token wurde abgelehnt. Bitte prüfen Sie es (bei Jira auch den Benutzernamen) und versuchen Sie es erneut',
    },
  },
  /** The vendor is out of order (5xx, timeout, no connection): the only vendor failure that is a 5xx. */
  VENDOR_UNAVAILABLE: {
    status: 502,
    msg: {
      en: 'The service could not be reached. Please try again later',
      de: 'Der Dienst ist nicht erreichbar. Bitte versuchen Sie es später erneut',
    },
  },
  /** A masked secret sent back with a new host, URL or username: the stored one is not sent elsewhere. */
  SECRET_REQUIRED: {
    status: 400,
    msg: {
      en: 'Please enter the token again: the stored one is only sent to the address it was saved for',
      de: 'Bitte geben Sie das Token erneut ein: Das gespeicherte wird nur an die Adresse gesendet, für die es gespeichert wurde',
    },
  },
  UPDATE_FAILED: {
    status: 400,
    msg: { en: 'Update failed', de: 'Aktualisierung fehlgeschlagen' },
  },
  INVALID_VAT: {
    status: 400,
    msg: { en: 'Please check your VAT number', de: 'Bitte überprüfen Sie Ihre USt-IdNr.' },
  },
  INVALID_SIGNATURE: {
    status: 400,
    msg: { en: 'Invalid signature', de: 'Ungültige Signatur' },
  },
  /** An inbound tracker hook whose token or signature does not match the hook's secret (issue 24). */
  HOOK_SIGNATURE_INVALID: {
    status: 401,
    msg: {
      en: 'The webhook token or signature is invalid',
      de: 'Token oder Signatur des Webhooks ist ungültig',
    },
  },
  /** An inbound tracker hook signed correctly but outside its time window (Linear's 60 s). */
  HOOK_STALE: {
    status: 401,
    msg: {
      en: 'The webhook delivery is too old',
      de: 'Die Webhook-Zustellung ist zu alt',
    },
  },
  /** The tracker's hooks cannot be registered through its API with this integration (Jira: an admin's step). */
  HOOK_NOT_REGISTRABLE: {
    status: 400,
    msg: {
      en: 'This tracker’s webhook must be set up by hand: follow the steps shown',
      de: 'Der Webhook dieses Trackers muss von Hand eingerichtet werden: Folgen Sie den angezeigten Schritten',
    },
  },
  HOOK_SECRET_NOT_SNAGS: {
    status: 400,
    msg: {
      en: 'This tracker signs its deliveries with a secret Snag did not choose (its own, or your app’s): there is nothing to regenerate here',
      de: 'Dieser Tracker signiert seine Zustellungen mit einem Geheimnis, das Snag nicht gewählt hat (seinem eigenen oder dem Ihrer App): Hier gibt es nichts neu zu erzeugen',
    },
  },
  BUSINESS_REQUEST_PENDING: {
    status: 409,
    msg: {
      en: 'Your Business request is still pending: we will get back to you',
      de: 'Ihre Business-Anfrage ist noch in Bearbeitung: wir melden uns bei Ihnen',
    },
  },
  PAYMENT_MISMATCH: {
    status: 400,
    msg: {
      en: 'The payment does not match the checkout',
      de: 'Die Zahlung passt nicht zum Bezahlvorgang',
    },
  },
  // The widget's intake (issue 7)
  INVALID_UPLOAD: {
    status: 400,
    msg: {
      en: 'The uploaded file is missing, was already used or does not belong to this report',
      de: 'Die hochgeladene Datei fehlt, wurde bereits verwendet oder gehört nicht zu dieser Meldung',
    },
  },
  FEATURE_DISABLED: {
    status: 403,
    msg: {
      en: 'This feature is turned off for this website',
      de: 'Diese Funktion ist für diese Website ausgeschaltet',
    },
  },
  FILE_TOO_LARGE: {
    status: 413,
    msg: { en: 'The file is too large', de: 'Die Datei ist zu groß' },
  },
  FILE_TYPE_NOT_ALLOWED: {
    status: 415,
    msg: { en: 'This type of file cannot be uploaded', de: 'Dieser Dateityp kann nicht hochgeladen werden' },
  },
  QUOTA_EXCEEDED: {
    status: 403,
    msg: {
      en: 'The storage quota of this website is used up',
      de: 'Der Speicherplatz dieser Website ist aufgebraucht',
    },
  },
  // The CSV export (issue 23): more issues than one export can prepare in time (exportLimits).
  EXPORT_TOO_LARGE: {
    status: 413,
    msg: {
      en: 'Too many issues for one export: narrow it with a filter',
      de: 'Zu viele Meldungen für einen Export: Grenzen Sie ihn mit einem Filter ein',
    },
  },
  // Transport-level errors (the foundation's own; never a 500 for bad input)
  UNAUTHORIZED: {
    status: 401,
    msg: { en: 'Please sign in to continue', de: 'Bitte melden Sie sich an, um fortzufahren' },
  },
  FORBIDDEN_ORIGIN: {
    status: 403,
    msg: { en: 'Cross-site request refused', de: 'Websiteübergreifende Anfrage abgelehnt' },
  },
  // A member of the team whose role lacks the action (issue 22; outside the team it is NOT_FOUND).
  FORBIDDEN: {
    status: 403,
    msg: {
      en: 'Your role in this team does not allow this',
      de: 'Ihre Rolle in diesem Team erlaubt das nicht',
    },
  },
  // API tokens (issue 25, docs/api.md): a token without the route's scope; a team at its token cap.
  INSUFFICIENT_SCOPE: {
    status: 403,
    msg: {
      en: 'This API token does not have the scope this call needs',
      de: 'Dieses API-Token hat nicht die Berechtigung, die dieser Aufruf braucht',
    },
  },
  /**
   * A bearer token was sent but names no live token (unknown, revoked, expired or malformed): the API's
   * caller must fix the token, not sign in, so it is not UNAUTHORIZED (which stays for a call without one).
   */
  TOKEN_INVALID: {
    status: 401,
    msg: {
      en: 'The API token is invalid: it is unknown, revoked, expired or malformed. Check it or create a new one',
      de: 'Das API-Token ist ungültig: Es ist unbekannt, widerrufen, abgelaufen oder fehlerhaft. Prüfen Sie es oder erstellen Sie ein neues',
    },
  },
  TOKEN_LIMIT: {
    status: 403,
    msg: {
      en: 'This team has the most API tokens it may have: revoke one first',
      de: 'Dieses Team hat bereits die Höchstzahl an API-Tokens: widerrufen Sie zuerst eines',
    },
  },
  // The browser extension's connection (contracts/extension.ts): one answer for every code that does not
  // work (unknown, used, expired, another's, or the verifier does not match), so a guesser learns nothing.
  EXTENSION_CODE_INVALID: {
    status: 400,
    msg: {
      en: 'This connection code is invalid or expired. Press Connect in the extension again',
      de: 'Dieser Verbindungscode ist ungültig oder abgelaufen. Drücken Sie in der Erweiterung erneut auf Verbinden',
    },
  },
  EXTENSION_LIMIT: {
    status: 403,
    msg: {
      en: 'You have connected the most browser extensions you may (10). Revoke one under Profile → Browser extension first',
      de: 'Sie haben bereits die Höchstzahl an Browsererweiterungen (10) verbunden. Widerrufen Sie zuerst eine unter Profil → Browsererweiterung',
    },
  },
  // Teams, members, invitations (issue 22, docs/data-model.md 4.12 "New catalogue codes").
  SEAT_LIMIT: {
    status: 403,
    msg: {
      en: "The team's plan has no free seat for this role. Upgrade the plan or free a seat first",
      de: 'Der Tarif des Teams hat keinen freien Platz für diese Rolle. Wechseln Sie den Tarif oder geben Sie zuerst einen Platz frei',
    },
  },
  TEAM_LIMIT: {
    status: 403,
    msg: {
      en: 'You are a member of the maximum number of teams (50)',
      de: 'Sie sind bereits Mitglied in der Höchstzahl von Teams (50)',
    },
  },
  ALREADY_MEMBER: {
    status: 409,
    msg: {
      en: 'This person is already a member of the team',
      de: 'Diese Person ist bereits Mitglied des Teams',
    },
  },
  OWNER_CANNOT_LEAVE: {
    status: 409,
    msg: {
      en: 'The owner cannot leave the team. Transfer the ownership first',
      de: 'Der Inhaber kann das Team nicht verlassen. Übertragen Sie zuerst die Inhaberschaft',
    },
  },
  OWNS_SHARED_TEAM: {
    status: 409,
    msg: {
      en: 'You own a team with other members. Transfer the team to another member or remove its members first',
      de: 'Sie sind Inhaber eines Teams mit weiteren Mitgliedern. Übertragen Sie das Team zuerst an ein anderes Mitglied oder entfernen Sie seine Mitglieder',
    },
  },
  INVITATION_INVALID: {
    status: 404,
    msg: { en: 'This invitation link is not valid', de: 'Dieser Einladungslink ist ungültig' },
  },
  UNSUBSCRIBE_INVALID: {
    status: 404,
    msg: {
      en: 'This unsubscribe link is not valid. Change your mails in your profile.',
      de: 'Dieser Abmeldelink ist ungültig. Ändern Sie Ihre E-Mails in Ihrem Profil.',
    },
  },
  INVITATION_USED: {
    status: 410,
    msg: { en: 'This invitation has already been used', de: 'Diese Einladung wurde bereits angenommen' },
  },
  INVITATION_REVOKED: {
    status: 410,
    msg: {
      en: 'This invitation was withdrawn or replaced by a newer one',
      de: 'Diese Einladung wurde zurückgezogen oder durch eine neuere ersetzt',
    },
  },
  INVITATION_EXPIRED: {
    status: 410,
    msg: {
      en: 'This invitation has expired. Ask for a new one',
      de: 'Diese Einladung ist abgelaufen. Bitten Sie um eine neue',
    },
  },
  /** The numbers are contracts/teams.ts' INVITATIONS_PER_ACCOUNT_PER_DAY, _PER_ADDRESS_PER_DAY, _PENDING_MAX. */
  INVITATION_LIMIT: {
    status: 429,
    msg: {
      en: 'Invitation limit reached: at most 20 invitations per account and 3 per email address a day, and 50 pending invitations per team. Try again tomorrow or withdraw pending invitations',
      de: 'Einladungslimit erreicht: höchstens 20 Einladungen pro Konto und 3 pro E-Mail-Adresse am Tag sowie 50 offene Einladungen pro Team. Versuchen Sie es morgen erneut oder ziehen Sie offene Einladungen zurück',
    },
  },
  INVITATION_WRONG_ACCOUNT: {
    status: 403,
    msg: {
      en: 'This invitation is for another email address. Sign in with the invited address',
      de: 'Diese Einladung gilt für eine andere E-Mail-Adresse. Melden Sie sich mit der eingeladenen Adresse an',
    },
  },
  // Triage (issue 23, docs/data-model.md 4.13): a project's labels.
  LABEL_LIMIT: {
    status: 409,
    msg: {
      en: 'A project has at most 50 labels. Delete one first',
      de: 'Ein Projekt hat höchstens 50 Labels. Löschen Sie zuerst eines',
    },
  },
  LABEL_EXISTS: {
    status: 409,
    msg: {
      en: 'The project already has a label with this name',
      de: 'Das Projekt hat bereits ein Label mit diesem Namen',
    },
  },
  // The replay player's image and font proxy (docs/replay.md "Sandbox"): an address it will not call (not
  // public https, credentials in it) is the caller's to fix; anything the host answered that is not a picture
  // or a font of at most the proxy's size, or no answer at all, is the far host's failure.
  ASSET_REFUSED: {
    status: 400,
    msg: {
      en: 'This address may not be loaded',
      de: 'Diese Adresse darf nicht geladen werden',
    },
  },
  ASSET_UNAVAILABLE: {
    status: 502,
    msg: {
      en: 'The image or font could not be loaded from the website',
      de: 'Das Bild oder die Schriftart konnte nicht von der Website geladen werden',
    },
  },
  NOT_FOUND: {
    status: 404,
    msg: { en: 'Not found', de: 'Nicht gefunden' },
  },
  // A data request's export that does not exist (never started, of another team, or past its day).
  DATA_EXPORT_NOT_FOUND: {
    status: 404,
    msg: {
      en: 'This export no longer exists: start it again',
      de: 'Dieser Export existiert nicht mehr: bitte neu starten',
    },
  },
  // A data request's export past its caps (contracts/data-requests.ts DATA_EXPORT_MAX_ISSUES, _MAX_BYTES):
  // one ZIP is built in one function's memory, so a person with more is exported project by project.
  DATA_EXPORT_TOO_LARGE: {
    status: 413,
    msg: {
      en: 'This person sent more than one export can hold (500 issues or 200 MB of files)',
      de: 'Diese Person hat mehr gesendet, als ein Export fassen kann (500 Meldungen oder 200 MB Dateien)',
    },
  },
  // A data request's erasure: the address typed again differs from the one to erase (nothing is erased).
  ERASE_CONFIRM_MISMATCH: {
    status: 400,
    msg: {
      en: 'The confirmation does not match the email address',
      de: 'Die Bestätigung stimmt nicht mit der E-Mail-Adresse überein',
    },
  },
  // Issue 23: the comment was deleted meanwhile (or is one the caller may not see: a GUEST and an internal one).
  COMMENT_NOT_FOUND: {
    status: 404,
    msg: {
      en: 'This comment no longer exists',
      de: 'Dieser Kommentar existiert nicht mehr',
    },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    msg: { en: 'Method not allowed', de: 'Methode nicht erlaubt' },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    msg: { en: 'Request body is too large', de: 'Der Inhalt der Anfrage ist zu groß' },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    msg: { en: 'Request body must be JSON', de: 'Der Inhalt der Anfrage muss JSON sein' },
  },
  INVALID_JSON: {
    status: 400,
    msg: { en: 'Request body is not valid JSON', de: 'Der Inhalt der Anfrage ist kein gültiges JSON' },
  },
  RATE_LIMITED: {
    status: 429,
    msg: {
      en: 'Too many requests, please try again later',
      de: 'Zu viele Anfragen, bitte versuchen Sie es später erneut',
    },
  },
  /** The project receives many reports today: solve the challenge in `fields.proof` and send it as `proof`. */
  PROOF_REQUIRED: {
    status: 429,
    msg: {
      en: 'Many reports are arriving right now: please solve the attached challenge and send the report again',
      de: 'Gerade treffen viele Meldungen ein: bitte lösen Sie die beigefügte Aufgabe und senden Sie die Meldung erneut',
    },
  },
  /**
   * Others changed the same item so often at once that this write lost every retry: nothing was written,
   * the request itself is fine, and trying again after `Retry-After` succeeds (decision Tr-C15).
   */
  /** The public API's create (issue 34): an `Idempotency-Key` already used by this token for another body. */
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    msg: {
      en: 'This Idempotency-Key was already used for a different request: use a new key for a new issue',
      de: 'Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet: nehmen Sie für eine neue Meldung einen neuen Schlüssel',
    },
  },
  /** The same key's first call is still being filed: nothing was written by this one; send it again. */
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    msg: {
      en: 'A request with this Idempotency-Key is still in progress, please try again in a moment',
      de: 'Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet, bitte versuchen Sie es gleich erneut',
    },
  },
  // Merging similar reports (issue 37, functions/issues/merge.ts, docs/similar.md "Merging").
  /** POST …/merge: `into` names no issue of this project. */
  MERGE_TARGET_MISSING: {
    status: 422,
    msg: {
      en: 'There is no issue with this number in the project',
      de: 'Im Projekt gibt es keine Meldung mit dieser Nummer',
    },
  },
  /** `into` is itself a duplicate: merge into its primary (the answer's `fields.into` names it). */
  MERGE_INTO_DUPLICATE: {
    status: 409,
    msg: {
      en: 'That issue is itself a duplicate: merge into the issue it was merged into',
      de: 'Diese Meldung ist selbst ein Duplikat: führen Sie sie mit der Meldung zusammen, in die sie eingefügt wurde',
    },
  },
  /** Reports were merged into this issue: unmerge them first, or merge the others into it instead. */
  MERGE_HAS_DUPLICATES: {
    status: 409,
    msg: {
      en: 'Other reports were merged into this issue: unmerge them first, or merge into this issue instead',
      de: 'In diese Meldung wurden andere Meldungen zusammengeführt: heben Sie das zuerst auf oder führen Sie stattdessen in diese Meldung zusammen',
    },
  },
  /** The issue is a duplicate of another already: unmerge it first. */
  ALREADY_MERGED: {
    status: 409,
    msg: {
      en: 'This issue is already a duplicate of another issue: unmerge it first',
      de: 'Diese Meldung ist bereits ein Duplikat einer anderen Meldung: heben Sie das zuerst auf',
    },
  },
  /** The primary gathered `similarLimits.duplicatesPerPrimary` duplicates already. */
  MERGE_LIMIT: {
    status: 409,
    msg: {
      en: 'That issue has as many duplicates as it can hold',
      de: 'Diese Meldung hat bereits so viele Duplikate, wie sie aufnehmen kann',
    },
  },
  BUSY: {
    status: 409,
    msg: {
      en: 'Others are changing this right now, please try again in a moment',
      de: 'Andere ändern dies gerade, bitte versuchen Sie es gleich erneut',
    },
  },
  NOT_READY: {
    status: 503,
    msg: {
      en: 'Service is starting, try again shortly',
      de: 'Der Dienst startet, bitte gleich erneut versuchen',
    },
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Screen-specific wording of SPEC.md section 8, chosen by the route's `context`. */
export const contextMessages = {
  // The login form's field is labelled Email: its messages name the address so (issue 19). The API keeps
  // SPEC.md section 8's texts for these codes.
  login: {
    ACCESS_DENIED: { en: 'Incorrect email or password', de: 'E-Mail-Adresse oder Passwort ist falsch' },
    ACCESS_DISABLED: {
      en: 'Sign-in with this email is blocked in this browser after too many failed attempts (browsers you signed in with before still work).',
      de: 'Die Anmeldung mit dieser E-Mail-Adresse ist in diesem Browser nach zu vielen Fehlversuchen gesperrt (Browser, mit denen Sie sich schon angemeldet haben, funktionieren weiterhin).',
    },
  },
  registration: {
    SYSTEM_ERROR: { en: 'Registration failed', de: 'Registrierung fehlgeschlagen' },
    INVALID_PARAMETERS: { en: 'Registration failed', de: 'Registrierung fehlgeschlagen' },
  },
  resendConfirmation: {
    RESTORE_NOT_POSSIBLE: {
      en: 'It is not possible to resend confirmation email',
      de: 'Die Bestätigungs-E-Mail kann nicht erneut gesendet werden',
    },
  },
  passwordChange: {
    SYSTEM_ERROR: { en: 'Error updating data', de: 'Fehler beim Aktualisieren der Daten' },
    INVALID_PARAMETERS: { en: 'Error updating data', de: 'Fehler beim Aktualisieren der Daten' },
  },
  profileUpdate: {
    SYSTEM_ERROR: { en: 'Error updating data', de: 'Fehler beim Aktualisieren der Daten' },
  },
  profileDelete: {
    SYSTEM_ERROR: { en: 'Delete failed', de: 'Löschen fehlgeschlagen' },
  },
  projectCreate: {
    SYSTEM_ERROR: {
      en: 'It is not possible to create a project',
      de: 'Es ist nicht möglich, ein Projekt anzulegen',
    },
    PLAN_LIMIT: {
      en: 'It is not possible to create a project',
      de: 'Es ist nicht möglich, ein Projekt anzulegen',
    },
  },
  integrationSave: {
    SYSTEM_ERROR: { en: 'Update failed', de: 'Aktualisierung fehlgeschlagen' },
    INVALID_PARAMETERS: { en: 'Update failed', de: 'Aktualisierung fehlgeschlagen' },
  },
} as const satisfies Record<string, Partial<Record<ErrorCode, Text>>>;

export type ErrorContext = keyof typeof contextMessages;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

/** The message a caller sees for `code`, in `lang`, on the screen named by `context`. */
export function errorMessage(code: ErrorCode, lang: Lang = 'en', context?: ErrorContext): string {
  const byContext = context
    ? (contextMessages[context] as Partial<Record<ErrorCode, Text>>)[code]
    : undefined;
  return (byContext ?? errorCatalogue[code].msg)[lang];
}

export function errorStatus(code: ErrorCode): number {
  return errorCatalogue[code].status;
}

/**
 * What an error envelope may add to its code (additions to DESIGN.md section 2's envelope): `retryAt`, when
 * a time-limited refusal ends (ISO 8601; ACCESS_DISABLED); `expected`, per refused field, what it takes, in
 * words of the caller's language (INVALID_PARAMETERS, contracts/validation.ts).
 */
export interface ErrorDetails {
  retryAt?: string;
  expected?: Record<string, string>;
  /** INSUFFICIENT_SCOPE: the scope the call needs, so the token's maker knows which to grant. */
  scope?: string;
}

/** The sentence that ends a time-limited refusal's message: when it ends, or (not known) "later". */
const retrySentence = {
  at: { en: 'Try again after {time}.', de: 'Versuchen Sie es nach {time} erneut.' },
  later: { en: 'Try again later.', de: 'Versuchen Sie es später erneut.' },
} as const satisfies Record<string, Text>;

/**
 * `message` ended by when its block ends, `time` already formatted for the reader (the API: UTC; the
 * dashboard: the reader's locale and time zone), or by "try again later" without one.
 */
export function withRetryAt(message: string, lang: Lang, time?: string): string {
  const sentence = time ? retrySentence.at[lang].replace('{time}', time) : retrySentence.later[lang];
  return `${message}${/[.!]$/.test(message) ? '' : '.'} ${sentence}`;
}

/** The response envelope of DESIGN.md section 2. */
export type SuccessEnvelope<T> = { status: 'success'; msg: T };
export type ErrorEnvelope = {
  status: 'error';
  code: ErrorCode;
  msg: string;
  fields?: Record<string, string>;
} & ErrorDetails;
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

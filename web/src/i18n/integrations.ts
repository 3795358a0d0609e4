/**
 * The integrations' settings texts (the Integration screen and its vendor forms), English and German, the
 * `integrationScreen` part of the catalogue. They load with that screen, not with the dashboard's first
 * load, whose budget (DESIGN.md section 7) carries the language catalogues: `web/src/integrations/texts.ts`
 * adds them to both languages, and the screen imports it.
 */
import type { Lang } from './language';

const en = {
  tabs: 'Integrations',
  fakeTitle: 'A local fake, not the real {{name}}',
  fakeText:
    'This local stack sends everything for {{name}} to a stand-in on this machine ({{url}}). Nothing reaches the real service.',
  fakeEnterText:
    'This local stack runs a stand-in for {{name}} on this machine. Enter {{url}} as the address to try it without an account; only a real address reaches the real service.',
  fakeAnyToken: 'Any token works here; one containing “invalid” is refused, to try the error.',
  fakeInbox: 'See what the fake received',
  active: 'Active',
  activeHint: 'Every new issue is sent here.',
  save: 'Save',
  // The save's toast names what was saved.
  savedToast: {
    email: 'Email settings saved',
    gitlab: 'GitLab integration saved',
    jira: 'Jira integration saved',
    slack: 'Slack integration saved',
    asana: 'Asana integration saved',
    github: 'GitHub integration saved',
    webhooks: 'Webhook settings saved',
    linear: 'Linear integration saved',
    clickup: 'ClickUp integration saved',
    teams: 'Microsoft Teams integration saved',
    discord: 'Discord integration saved',
    azure: 'Azure DevOps integration saved',
    trello: 'Trello integration saved',
  },
  trackerSync: {
    optionsTitle: 'Two-way sync',
    syncState: 'Resolving or reopening an issue in Snag closes or reopens it on {{tracker}}',
    syncComments: 'Public comments in Snag are posted on the {{tracker}} issue',
    publicTrackerComments:
      'Comments from {{tracker}} are public in Snag (the reporter sees them); otherwise they are internal',
    hookTitle: 'Changes from {{tracker}}',
    intro:
      'When the {{tracker}} issue is closed, Snag resolves it; reopened, Snag reopens it; comments there appear on the issue here. {{tracker}} sends them to this address, proven by the secret.',
    url: 'Inbound URL',
    secret: 'Secret token',
    copy: 'Copy',
    copied: 'Copied',
    copyUrl: 'Copy the inbound URL',
    copySecret: 'Copy the secret token',
    create: 'Create the inbound URL and secret',
    revealSecret: 'Show the secret',
    regenerate: 'Regenerate the secret',
    regenerated: 'A new secret was made and the old one no longer works: enter it on {{tracker}}.',
    reregistered:
      'A new secret was made; Snag registered the webhook on {{tracker}} again with it and deleted the old one there. Nothing to enter.',
    vendorSecret:
      '{{tracker}} chooses the secret it signs deliveries with when Snag registers the webhook, and Snag keeps it: there is nothing to copy or regenerate. Registering again replaces the webhook and its secret.',
    appSecret:
      '{{tracker}} signs deliveries with your app’s secret (entered above) and this URL: there is nothing to copy or regenerate here. To change it, enter the app’s new secret above.',
    stepsTitle: 'Set it up on {{tracker}}',
    register: 'Register the webhook on {{tracker}}',
    registered: 'Registered on {{tracker}} (webhook {{id}}).',
    registerAgain: 'Register again',
    gitlab1:
      'Press “Register the webhook on GitLab” below (your token needs the Maintainer role), or do it by hand: in the GitLab project open Settings › Webhooks › Add new webhook.',
    gitlab2: 'URL: the inbound URL above. Secret token: the secret above.',
    gitlab3: 'Trigger: Issues events and Comments. Keep SSL verification on, then Add webhook.',
    jira1:
      'A Jira administrator opens Settings (⚙) › System › WebHooks and chooses Create a WebHook (an API token cannot do this).',
    jira2: 'URL: the inbound URL above. Secret: the secret above.',
    jira3: 'Events: Issue › updated and Comment › created; JQL (optional): project = your project key.',
    jira4: 'Save. Jira signs every delivery with the secret; Snag refuses unsigned ones.',
    github1:
      'Press “Register the webhook on GitHub” below (your token needs the Webhooks permission, read and write), or do it by hand: in the repository open Settings › Webhooks › Add webhook.',
    github2:
      'Payload URL: the inbound URL above. Content type: application/json. Secret: the secret above. Keep SSL verification on.',
    github3:
      'Which events: Let me select individual events, then Issues and Issue comments. Keep Active on, then Add webhook.',
    linear1:
      'Press “Register the webhook on Linear” below (only a workspace admin’s API key may), or have an admin do it by hand: Linear Settings › API › Webhooks › New webhook.',
    linear2: 'URL: the inbound URL above. Secret: the secret above (under the signing secret’s field).',
    linear3:
      'Team: the team chosen above. Data change events: Issues and Comments. Then Create webhook; Snag refuses deliveries older than a minute.',
    linearAdminOnly:
      'Linear lets only a workspace admin’s API key register webhooks. Ask an admin to follow the steps above, or authorise with an admin’s key.',
    clickup1:
      'Press “Register the webhook on ClickUp” below: Snag registers it on the chosen list with your token (ClickUp has no screen for webhooks; they belong to the token’s user and stop if that user is removed from the workspace).',
    clickup2:
      'Snag asks ClickUp for task status changes and new comments. ClickUp signs each delivery with its own secret, which Snag keeps: nothing to copy.',
    clickup3:
      'A status of type “closed” (or “done”) resolves the Snag issue; any other reopens it. “Register again” replaces the webhook (and so its secret) and deletes the old one on ClickUp.',
    azure1:
      'Press “Register the webhook on Azure DevOps” below (the token needs Work Items read and write; it makes two service hook subscriptions), or do it by hand: Project settings › Service hooks › Create subscription › Web Hooks.',
    azure2:
      'Trigger: Work item updated (field: State), then again Work item commented on; the work item type chosen above, for both.',
    azure3:
      'URL: the inbound URL above. HTTP headers: X-Snag-Secret:<the secret above> (or Basic authentication with any user name and the secret as the password). Resource details to send: All. Then Finish.',
    trello1:
      'Press “Register the webhook on Trello” below: Snag registers it on the chosen board with your token (Trello has no page for webhooks).',
    trello2:
      'Trello checks the inbound URL first and signs every delivery with your app’s secret and that URL; Snag refuses the others, and deliveries older than an hour.',
    trello3:
      'Choose above the list that means done: a card moved there, or archived, resolves the issue in Snag.',
  },
  authorize: 'Authorize',
  authorized: 'Authorized',
  nextStep: 'Not sending issues yet: check the choices below, switch Active on and press Save.',
  resetAuthorization: 'Reset authorization',
  loadingOptions: 'Loading…',
  httpsOnly: 'Please enter an address that starts with https://',
  hostInvalid: 'Please enter a host name such as gitlab.example.com, or an address that starts with https://',
  keyInvalid:
    'The key holds characters a key never has (a space, a line break or a letter outside plain ASCII): please copy it again',
  removeRow: 'Remove row {{index}}',
  rowLimit: 'You have reached the maximum of {{count}}.',
  delay:
    'New issues are usually delivered within a few seconds. A delivery that fails is retried for about an hour, then listed under Failed issues below.',
  upgrade: 'See plans',
  upgradeText:
    'Your plan does not include {{name}}. Upgrade to send your issues there; email works on every plan.',
  email: {
    description: 'Send every new issue by email, with its screenshots, files and page details.',
    activeHint: 'Every new issue is emailed to the address and its copies.',
    membersHint:
      'Team members named here get this mail only while their own “New issues” setting (Profile → Email notifications) says “A mail at once for each new issue”; otherwise that setting decides.',
    address: 'Email address',
    cc: 'Copy to (CC {{index}})',
    removeCc: 'Remove copy address {{index}}',
    addCc: 'Add copy address',
    contactTitle: 'Contact details in the email',
    contactName: 'Name',
    contactNamePlaceholder: 'Support hotline',
    contactValue: 'Value',
    addContact: 'Add contact detail',
    contactEmpty: 'No contact details.',
  },
  gitlab: {
    description: 'Create a GitLab issue for every new issue, with its screenshots.',
    host: 'GitLab host',
    hostHint: 'Leave empty for gitlab.com; enter your address for a self-hosted GitLab.',
    token: 'Personal access token',
    tokenHint: 'A token with the api scope (GitLab: Preferences → Access tokens).',
    project: 'Project',
  },
  jira: {
    description: 'Create a Jira issue for every new issue, with its screenshots and files attached.',
    host: 'Jira site',
    hostHint: 'The address of your Jira site, e.g. https://your-team.atlassian.net.',
    username: 'Username (email)',
    token: 'API token or password',
    tokenHint: 'Create an API token at id.atlassian.com → Security → API tokens.',
    project: 'Project',
    issueType: 'Issue type',
    fieldsTitle: 'Extra fields',
    fieldName: 'Field key',
    fieldValue: 'Value',
    addField: 'Add field',
    fieldsEmpty: 'No extra fields.',
  },
  linear: {
    description:
      'Create a Linear issue for every new issue, with its screenshots, page and device details and a link back to Snag.',
    token: 'Personal API key',
    tokenHint: 'Linear: Settings → Security & access → Personal API keys. The key acts as you in Linear.',
    project: 'Team',
  },
  slack: {
    description: 'Post every new issue to a Slack channel, with its screenshot.',
    connect: 'Connect to Slack',
    channel: 'Channel',
    invite: 'Snag posts only into channels it was invited to. In the channel, type',
  },
  github: {
    description: 'Create a GitHub issue for every new issue, with links to its screenshots and files.',
    token: 'Fine-grained personal access token',
    tokenHint:
      'GitHub → Settings → Developer settings → Fine-grained tokens: choose the repositories, and give Issues read and write (Metadata read comes with it).',
    repo: 'Repository',
    labels: 'Labels',
    labelsHint:
      'Set on every issue Snag creates (up to {{count}}). GitHub drops them silently unless the token’s user may label issues in the repository.',
    labelsPlaceholder: 'bug, feedback',
    labelInvalid: 'Labels are at most 50 characters, without commas.',
    quoting:
      'The visitor’s text arrives quoted as code, so mentions and issue references in it notify nobody. Screenshot links work for {{days}} days.',
  },
  asana: {
    description: 'Create an Asana task for every new issue, with its screenshots and files attached.',
    connect: 'Connect to Asana',
    channel: 'Project',
  },
  webhooks: {
    description: 'POST every new issue as JSON to your own service.',
    url: 'URL',
    token: 'Token',
    tokenHint: 'Sent in the X-Snag-Token header and used to sign each request (X-Snag-Signature).',
    docs: 'Each request is a signed JSON document with a version field; verify the X-Snag-Signature header with your token before trusting it.',
    events: 'Events',
    eventCreated: 'New issue (issue.created)',
    alwaysSent: 'Always sent.',
    eventUpdated: 'Issue changed: status, priority, assignee, labels, due date (issue.updated)',
    eventComment: 'New comment, internal ones flagged (comment.created)',
    eventMerged: 'Issue merged into another as its duplicate (issue.merged)',
    eventUnmerged: 'Duplicate taken out of its primary again (issue.unmerged)',
  },
  trello: {
    description:
      'Create a Trello card for every new issue, with its screenshots attached, and keep it in step both ways.',
    key: 'API key',
    keyHint:
      'Trello: trello.com/power-ups/admin, your Power-Up (or a new one) › API key. The same page shows the secret and the link that makes a token.',
    token: 'Token',
    tokenHint: 'Made for this API key from the “Token” link on that page; it acts as you in Trello.',
    secret: 'Secret',
    secretHint:
      'Also on that page: Trello signs the webhook deliveries with it, so Snag can tell them apart from forgeries.',
    keyInvalid: 'An API key is letters and digits only.',
    board: 'Board',
    list: 'List for new cards',
    doneList: 'List that means done',
    doneListHint:
      'A card moved there, or archived, resolves the issue in Snag; resolving in Snag moves the card there (archives it when none is chosen).',
    doneNone: 'None: archiving resolves',
    fakeApp: 'This local fake’s API key, secret and a token to enter above are on its page:',
    fakeAppLink: 'the fake Trello’s app page',
    quoting: 'The visitor’s text arrives quoted as code, so mentions and links in it reach nobody.',
  },
  oauth: {
    exchanging: 'Connecting your account…',
    reconnect: 'Connect again',
    tryAgain: 'Try again',
  },
  sync: {
    title: 'Sync',
    description:
      'Issues this integration has not received: new ones, and ones whose delivery failed. Select them and send them again.',
    new_one: 'New issues ({{count}})',
    new_other: 'New issues ({{count}})',
    failed_one: 'Failed issues ({{count}})',
    failed_other: 'Failed issues ({{count}})',
    newEmpty: 'No new issues.',
    failedEmpty: 'No failed issues.',
    buttonNone: 'Sync',
    button_one: 'Sync {{count}} issue',
    button_other: 'Sync {{count}} issues',
    selectAll: 'Select all',
    open: 'Open #{{number}}',
    openShort: 'Open',
    inactive: '{{name}} is off: switch Active on and save above, then sync these issues.',
    unauthorized:
      '{{name}} is not set up yet: set it up above, switch Active on and save, then sync these issues.',
  },
  clickup: {
    description:
      'Create a ClickUp task for every new issue, with its screenshots attached, its page and device details and a link back to Snag.',
    token: 'Personal API token',
    tokenHint: 'ClickUp: Settings → Apps → API Token (starts with pk_). The token acts as you in ClickUp.',
    project: 'List',
    quoting:
      'The visitor’s text arrives quoted as code, so mentions and links in it reach nobody. The screenshots are attached to the task.',
  },
  teams: {
    description:
      'Post a card for every new issue in a Teams channel: title, description, page, device, the screenshot and buttons to open it in Snag.',
    url: 'Workflow URL',
    urlHint:
      'In Teams, add the Workflows template “Post to a channel when a webhook request is received” to the channel and paste the URL it shows. Anyone with this URL can post there, so Snag keeps it secret.',
    urlInvalid: 'Paste the https URL the workflow shows.',
    inert:
      'The visitor’s text arrives as plain text: nothing in it can mention anyone or become a link. Screenshot and file links work for a year.',
  },
  discord: {
    description:
      'Post an embed for every new issue in a Discord channel: title, description, page, device, the screenshot and a link to Snag.',
    url: 'Webhook URL',
    urlHint:
      'In Discord, open the channel’s settings, Integrations, Webhooks, create one and copy its URL. Anyone with this URL can post there, so Snag keeps it secret.',
    urlInvalid: 'Paste a Discord webhook URL (https://discord.com/api/webhooks/…).',
    inert:
      'Nothing in a report pings anyone (@everyone, @here, users or roles) or becomes a link. Screenshot and file links work for a year.',
  },
  azure: {
    description:
      'Create an Azure DevOps work item for every new issue, with its screenshots attached and a link back to Snag.',
    host: 'Organisation URL',
    hostHint:
      'https://dev.azure.com/your-organisation, or the collection URL of your Azure DevOps Server (https://server/tfs/DefaultCollection).',
    token: 'Personal access token',
    tokenHint:
      'Azure DevOps → User settings → Personal access tokens: scopes Work Items (Read & write), which also lets Snag register the service hooks, and Project and Team (Read).',
    project: 'Project',
    type: 'Work item type',
    typeHint: 'Bug by default. Snag writes the description into Repro Steps where the type has it.',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type IntegrationTexts = Widen<typeof en>;

const de: IntegrationTexts = {
  tabs: 'Integrationen',
  fakeTitle: 'Eine lokale Nachbildung, nicht das echte {{name}}',
  fakeText:
    'Diese lokale Umgebung schickt alles für {{name}} an einen Ersatz auf diesem Rechner ({{url}}). Nichts erreicht den echten Dienst.',
  fakeEnterText:
    'Diese lokale Umgebung betreibt einen Ersatz für {{name}} auf diesem Rechner. Geben Sie {{url}} als Adresse ein, um es ohne Konto auszuprobieren; nur eine echte Adresse erreicht den echten Dienst.',
  fakeAnyToken:
    'Hier funktioniert jedes Token; eines, das „invalid“ enthält, wird abgelehnt, um den Fehler auszuprobieren.',
  fakeInbox: 'Ansehen, was die Nachbildung empfangen hat',
  active: 'Aktiv',
  activeHint: 'Jede neue Meldung wird hierhin gesendet.',
  save: 'Speichern',
  savedToast: {
    email: 'E-Mail-Einstellungen gespeichert',
    gitlab: 'GitLab-Integration gespeichert',
    jira: 'Jira-Integration gespeichert',
    slack: 'Slack-Integration gespeichert',
    asana: 'Asana-Integration gespeichert',
    github: 'GitHub-Integration gespeichert',
    webhooks: 'Webhook-Einstellungen gespeichert',
    linear: 'Linear-Integration gespeichert',
    clickup: 'ClickUp-Integration gespeichert',
    teams: 'Microsoft-Teams-Integration gespeichert',
    discord: 'Discord-Integration gespeichert',
    azure: 'Azure-DevOps-Integration gespeichert',
    trello: 'Trello-Integration gespeichert',
  },
  trackerSync: {
    optionsTitle: 'Zwei-Wege-Synchronisation',
    syncState: 'Erledigen oder Wiedereröffnen in Snag schließt oder öffnet das Issue in {{tracker}}',
    syncComments: 'Öffentliche Kommentare in Snag werden im {{tracker}}-Issue gepostet',
    publicTrackerComments:
      'Kommentare aus {{tracker}} sind in Snag öffentlich (die meldende Person sieht sie); sonst intern',
    hookTitle: 'Änderungen aus {{tracker}}',
    intro:
      'Wird das {{tracker}}-Issue geschlossen, erledigt Snag die Meldung; wird es wieder geöffnet, öffnet Snag sie wieder; Kommentare dort erscheinen hier. {{tracker}} sendet sie an diese Adresse, belegt durch das Secret.',
    url: 'Eingangs-URL',
    secret: 'Secret-Token',
    copy: 'Kopieren',
    copied: 'Kopiert',
    copyUrl: 'Eingangs-URL kopieren',
    copySecret: 'Secret-Token kopieren',
    create: 'Eingangs-URL und Secret erstellen',
    revealSecret: 'Secret anzeigen',
    regenerate: 'Secret neu erzeugen',
    regenerated:
      'Ein neues Secret wurde erzeugt, das alte gilt nicht mehr: Tragen Sie es in {{tracker}} ein.',
    reregistered:
      'Ein neues Secret wurde erzeugt; Snag hat den Webhook bei {{tracker}} damit neu registriert und den alten dort gelöscht. Nichts einzutragen.',
    vendorSecret:
      '{{tracker}} wählt das Secret, mit dem es Zustellungen signiert, wenn Snag den Webhook registriert, und Snag bewahrt es: Es gibt nichts zu kopieren oder neu zu erzeugen. Erneutes Registrieren ersetzt den Webhook und sein Secret.',
    appSecret:
      '{{tracker}} signiert Zustellungen mit dem Secret Ihrer App (oben eingetragen) und dieser URL: Hier gibt es nichts zu kopieren oder neu zu erzeugen. Um es zu ändern, tragen Sie oben das neue Secret der App ein.',
    stepsTitle: 'Einrichtung in {{tracker}}',
    register: 'Webhook bei {{tracker}} registrieren',
    registered: 'Bei {{tracker}} registriert (Webhook {{id}}).',
    registerAgain: 'Erneut registrieren',
    gitlab1:
      'Unten „Webhook bei GitLab registrieren“ wählen (Ihr Token braucht die Rolle Maintainer) oder von Hand: im GitLab-Projekt Einstellungen › Webhooks › Neuen Webhook hinzufügen.',
    gitlab2: 'URL: die Eingangs-URL oben. Secret-Token: das Secret oben.',
    gitlab3:
      'Auslöser: Issue-Ereignisse und Kommentare. SSL-Überprüfung eingeschaltet lassen, dann Webhook hinzufügen.',
    jira1:
      'Eine Jira-Administratorin öffnet Einstellungen (⚙) › System › WebHooks und wählt WebHook erstellen (mit einem API-Token geht das nicht).',
    jira2: 'URL: die Eingangs-URL oben. Secret: das Secret oben.',
    jira3:
      'Ereignisse: Vorgang › aktualisiert und Kommentar › erstellt; JQL (optional): project = Ihr Projektschlüssel.',
    jira4: 'Speichern. Jira signiert jede Zustellung mit dem Secret; Snag lehnt unsignierte ab.',
    github1:
      'Unten „Webhook bei GitHub registrieren“ wählen (Ihr Token braucht die Berechtigung Webhooks, Lesen und Schreiben) oder von Hand: im Repository Settings › Webhooks › Add webhook.',
    github2:
      'Payload URL: die Eingangs-URL oben. Content type: application/json. Secret: das Secret oben. SSL-Überprüfung eingeschaltet lassen.',
    github3:
      'Ereignisse: Let me select individual events, dann Issues und Issue comments. Active eingeschaltet lassen, dann Add webhook.',
    linear1:
      'Unten „Webhook bei Linear registrieren“ wählen (das darf nur der API-Schlüssel einer Workspace-Admin) oder eine Admin richtet es von Hand ein: Linear-Einstellungen › API › Webhooks › New webhook.',
    linear2: 'URL: die Eingangs-URL oben. Secret: das Secret oben (im Feld für das Signing Secret).',
    linear3:
      'Team: das oben gewählte Team. Data change events: Issues und Comments. Dann Create webhook; Snag weist Zustellungen ab, die älter als eine Minute sind.',
    linearAdminOnly:
      'Linear erlaubt nur dem API-Schlüssel einer Workspace-Admin, Webhooks zu registrieren. Bitten Sie eine Admin, den Schritten oben zu folgen, oder autorisieren Sie mit dem Schlüssel einer Admin.',
    clickup1:
      'Drücken Sie unten „Webhook bei ClickUp registrieren“: Snag registriert ihn mit Ihrem Token für die gewählte Liste (ClickUp hat keine Oberfläche für Webhooks; sie gehören dem Benutzer des Tokens und enden, wenn er den Workspace verlässt).',
    clickup2:
      'Snag lässt sich Statusänderungen und neue Kommentare der Aufgaben senden. ClickUp signiert jede Zustellung mit einem eigenen Secret, das Snag aufbewahrt: nichts zu kopieren.',
    clickup3:
      'Ein Status vom Typ „closed“ (oder „done“) erledigt das Snag-Issue, jeder andere öffnet es wieder. „Erneut registrieren“ ersetzt den Webhook (und damit sein Secret) und löscht den alten bei ClickUp.',
    azure1:
      'Klicken Sie unten auf „Webhook bei Azure DevOps registrieren“ (das Token braucht „Work Items“ Lesen und Schreiben; es legt zwei Service-Hook-Abonnements an) oder richten Sie es von Hand ein: Projekteinstellungen › Service Hooks › Abonnement erstellen › Web Hooks.',
    azure2:
      'Auslöser: „Work item updated“ (Feld: State), dann ein zweites Mal „Work item commented on“; beide für den oben gewählten Arbeitselementtyp.',
    azure3:
      'URL: die Eingangs-URL oben. HTTP-Header: X-Snag-Secret:<das Secret oben> (oder Basic-Authentifizierung mit beliebigem Benutzernamen und dem Secret als Passwort). Zu sendende Ressourcendetails: Alle. Dann Fertig stellen.',
    trello1:
      'Drücken Sie unten „Webhook bei Trello registrieren“: Snag registriert ihn mit Ihrem Token auf dem gewählten Board (Trello hat keine Seite für Webhooks).',
    trello2:
      'Trello prüft zuerst die eingehende URL und signiert jede Zustellung mit dem Secret Ihrer App und dieser URL; Snag weist alle anderen ab, ebenso Zustellungen, die älter als eine Stunde sind.',
    trello3:
      'Wählen Sie oben die Liste, die „erledigt“ bedeutet: Eine dorthin verschobene oder archivierte Karte erledigt die Meldung in Snag.',
  },
  authorize: 'Autorisieren',
  authorized: 'Autorisiert',
  nextStep:
    'Noch werden keine Meldungen gesendet: Prüfen Sie die Auswahl unten, schalten Sie „Aktiv“ ein und drücken Sie „Speichern“.',
  resetAuthorization: 'Autorisierung zurücksetzen',
  loadingOptions: 'Wird geladen…',
  httpsOnly: 'Bitte geben Sie eine Adresse ein, die mit https:// beginnt',
  hostInvalid:
    'Bitte geben Sie einen Hostnamen wie gitlab.example.com ein oder eine Adresse, die mit https:// beginnt',
  keyInvalid:
    'Der Schlüssel enthält Zeichen, die ein Schlüssel nie hat (ein Leerzeichen, einen Zeilenumbruch oder einen Buchstaben außerhalb von ASCII): bitte kopieren Sie ihn erneut',
  removeRow: 'Zeile {{index}} entfernen',
  rowLimit: 'Sie haben das Maximum von {{count}} erreicht.',
  delay:
    'Neue Meldungen werden meist innerhalb weniger Sekunden übertragen. Eine fehlgeschlagene Übertragung wird etwa eine Stunde lang wiederholt und dann unten unter „Fehlgeschlagene Meldungen“ aufgeführt.',
  upgrade: 'Tarife ansehen',
  upgradeText:
    'Ihr Tarif enthält {{name}} nicht. Wechseln Sie den Tarif, um Ihre Meldungen dorthin zu senden; E-Mail funktioniert in jedem Tarif.',
  email: {
    description: 'Jede neue Meldung per E-Mail senden, mit Screenshots, Dateien und Seitendetails.',
    activeHint: 'Jede neue Meldung wird an die Adresse und ihre Kopien gesendet.',
    membersHint:
      'Teammitglieder erhalten diese E-Mail nur, solange ihre eigene Einstellung „Neue Meldungen“ (Profil → E-Mail-Benachrichtigungen) „Sofort eine Mail zu jeder neuen Meldung“ lautet; sonst entscheidet diese Einstellung.',
    address: 'E-Mail-Adresse',
    cc: 'Kopie an (CC {{index}})',
    removeCc: 'Kopieadresse {{index}} entfernen',
    addCc: 'Kopieadresse hinzufügen',
    contactTitle: 'Kontaktangaben in der E-Mail',
    contactName: 'Name',
    contactNamePlaceholder: 'Support-Hotline',
    contactValue: 'Wert',
    addContact: 'Kontaktangabe hinzufügen',
    contactEmpty: 'Keine Kontaktangaben.',
  },
  gitlab: {
    description: 'Für jede neue Meldung ein GitLab-Issue anlegen, mit seinen Screenshots.',
    host: 'GitLab-Host',
    hostHint: 'Leer lassen für gitlab.com; für ein selbst betriebenes GitLab dessen Adresse eingeben.',
    token: 'Persönliches Zugriffstoken',
    tokenHint: 'Ein Token mit dem Scope api (GitLab: Einstellungen → Zugriffstoken).',
    project: 'Projekt',
  },
  jira: {
    description: 'Für jede neue Meldung ein Jira-Issue anlegen, mit Screenshots und Dateien als Anhang.',
    host: 'Jira-Site',
    hostHint: 'Die Adresse Ihrer Jira-Site, z. B. https://ihr-team.atlassian.net.',
    username: 'Benutzername (E-Mail)',
    token: 'API-Token oder Passwort',
    tokenHint: 'API-Token erstellen unter id.atlassian.com → Sicherheit → API-Token.',
    project: 'Projekt',
    issueType: 'Vorgangstyp',
    fieldsTitle: 'Zusätzliche Felder',
    fieldName: 'Feldschlüssel',
    fieldValue: 'Wert',
    addField: 'Feld hinzufügen',
    fieldsEmpty: 'Keine zusätzlichen Felder.',
  },
  linear: {
    description:
      'Für jede neue Meldung ein Linear-Issue anlegen, mit Screenshots, Seiten- und Geräteangaben und einem Link zurück zu Snag.',
    token: 'Persönlicher API-Schlüssel',
    tokenHint:
      'Linear: Settings → Security & access → Personal API keys. Der Schlüssel handelt in Linear in Ihrem Namen.',
    project: 'Team',
  },
  slack: {
    description: 'Jede neue Meldung mit seinem Screenshot in einem Slack-Kanal posten.',
    connect: 'Mit Slack verbinden',
    channel: 'Kanal',
    invite: 'Snag postet nur in Kanäle, in die es eingeladen wurde. Geben Sie im Kanal ein:',
  },
  github: {
    description:
      'Für jede neue Meldung ein GitHub-Issue anlegen, mit Links zu seinen Screenshots und Dateien.',
    token: 'Feingranulares persönliches Zugriffstoken',
    tokenHint:
      'GitHub → Settings → Developer settings → Fine-grained tokens: die Repositorys wählen und Issues mit Lese- und Schreibrecht freigeben (Metadata-Lesen gehört dazu).',
    repo: 'Repository',
    labels: 'Labels',
    labelsHint:
      'Werden an jedes Issue gesetzt, das Snag anlegt (bis zu {{count}}). GitHub lässt sie stillschweigend weg, wenn der Benutzer des Tokens im Repository keine Labels vergeben darf.',
    labelsPlaceholder: 'bug, feedback',
    labelInvalid: 'Labels haben höchstens 50 Zeichen und kein Komma.',
    quoting:
      'Der Text des Besuchers kommt als Code zitiert an, Erwähnungen und Issue-Verweise darin benachrichtigen niemanden. Screenshot-Links funktionieren {{days}} Tage lang.',
  },
  asana: {
    description: 'Für jede neue Meldung eine Asana-Aufgabe anlegen, mit Screenshots und Dateien als Anhang.',
    connect: 'Mit Asana verbinden',
    channel: 'Projekt',
  },
  webhooks: {
    description: 'Jede neue Meldung als JSON per POST an Ihren eigenen Dienst senden.',
    url: 'URL',
    token: 'Token',
    tokenHint: 'Wird im Header X-Snag-Token gesendet und signiert jede Anfrage (X-Snag-Signature).',
    docs: 'Jede Anfrage ist ein signiertes JSON-Dokument mit einem Versionsfeld; prüfen Sie den Header X-Snag-Signature mit Ihrem Token, bevor Sie ihr vertrauen.',
    events: 'Ereignisse',
    eventCreated: 'Neue Meldung (issue.created)',
    alwaysSent: 'Wird immer gesendet.',
    eventUpdated:
      'Meldung geändert: Status, Priorität, Zuständigkeit, Labels, Fälligkeitsdatum (issue.updated)',
    eventComment: 'Neuer Kommentar, interne gekennzeichnet (comment.created)',
    eventMerged: 'Meldung als Duplikat in eine andere zusammengeführt (issue.merged)',
    eventUnmerged: 'Duplikat wieder von seiner Hauptmeldung getrennt (issue.unmerged)',
  },
  trello: {
    description:
      'Für jede neue Meldung eine Trello-Karte anlegen, mit den Screenshots als Anhang, und sie in beide Richtungen abgleichen.',
    key: 'API-Schlüssel',
    keyHint:
      'Trello: trello.com/power-ups/admin, Ihr Power-Up (oder ein neues) › API key. Dieselbe Seite zeigt das Secret und den Link, der ein Token erstellt.',
    token: 'Token',
    tokenHint:
      'Für diesen API-Schlüssel über den Link „Token“ auf jener Seite erstellt; es handelt in Trello in Ihrem Namen.',
    secret: 'Secret',
    secretHint:
      'Ebenfalls auf jener Seite: Trello signiert damit die Webhook-Zustellungen, so erkennt Snag Fälschungen.',
    keyInvalid: 'Ein API-Schlüssel besteht nur aus Buchstaben und Ziffern.',
    board: 'Board',
    list: 'Liste für neue Karten',
    doneList: 'Liste für „erledigt“',
    doneListHint:
      'Eine dorthin verschobene oder archivierte Karte erledigt die Meldung in Snag; Erledigen in Snag verschiebt die Karte dorthin (archiviert sie, wenn keine gewählt ist).',
    doneNone: 'Keine: Archivieren erledigt',
    fakeApp: 'API-Schlüssel, Secret und ein Token dieser lokalen Nachbildung stehen auf ihrer Seite:',
    fakeAppLink: 'die App-Seite der Trello-Nachbildung',
    quoting:
      'Der Text der Besucher kommt als Code zitiert an, Erwähnungen und Links darin erreichen niemanden.',
  },
  oauth: {
    exchanging: 'Ihr Konto wird verbunden…',
    reconnect: 'Erneut verbinden',
    tryAgain: 'Erneut versuchen',
  },
  sync: {
    title: 'Synchronisieren',
    description:
      'Meldungen, die diese Integration nicht erhalten hat: neue und solche, deren Übertragung fehlschlug. Wählen Sie sie aus und senden Sie sie erneut.',
    new_one: 'Neue Meldungen ({{count}})',
    new_other: 'Neue Meldungen ({{count}})',
    failed_one: 'Fehlgeschlagene Meldungen ({{count}})',
    failed_other: 'Fehlgeschlagene Meldungen ({{count}})',
    newEmpty: 'Keine neuen Meldungen.',
    failedEmpty: 'Keine fehlgeschlagenen Meldungen.',
    buttonNone: 'Synchronisieren',
    button_one: '{{count}} Meldung synchronisieren',
    button_other: '{{count}} Meldungen synchronisieren',
    selectAll: 'Alle auswählen',
    open: '#{{number}} öffnen',
    openShort: 'Öffnen',
    inactive:
      '{{name}} ist ausgeschaltet: Schalten Sie oben „Aktiv“ ein und speichern Sie, dann können Sie diese Meldungen synchronisieren.',
    unauthorized:
      '{{name}} ist noch nicht eingerichtet: Richten Sie es oben ein, schalten Sie „Aktiv“ ein und speichern Sie, dann können Sie diese Meldungen synchronisieren.',
  },
  clickup: {
    description:
      'Für jedes neue Issue eine ClickUp-Aufgabe anlegen, mit angehängten Screenshots, Seite, Gerätedaten und einem Link zurück zu Snag.',
    token: 'Persönliches API-Token',
    tokenHint:
      'ClickUp: Einstellungen → Apps → API Token (beginnt mit pk_). Das Token handelt in ClickUp als Sie.',
    project: 'Liste',
    quoting:
      'Der Text der Besucher kommt als Code zitiert an, Erwähnungen und Links darin erreichen niemanden. Die Screenshots hängen an der Aufgabe.',
  },
  teams: {
    description:
      'Für jede neue Meldung eine Karte in einem Teams-Kanal posten: Titel, Beschreibung, Seite, Gerät, den Screenshot und Schaltflächen zum Öffnen in Snag.',
    url: 'Workflow-URL',
    urlHint:
      'Fügen Sie in Teams dem Kanal die Workflows-Vorlage „Bei Empfang einer Webhookanforderung in einem Kanal posten“ hinzu und fügen Sie die angezeigte URL hier ein. Wer diese URL kennt, kann dort posten; Snag hält sie geheim.',
    urlInvalid: 'Fügen Sie die https-URL ein, die der Workflow anzeigt.',
    inert:
      'Der Text der Besucher kommt als reiner Text an: Nichts darin kann jemanden erwähnen oder zu einem Link werden. Links zu Screenshots und Dateien sind ein Jahr gültig.',
  },
  discord: {
    description:
      'Für jede neue Meldung ein Embed in einem Discord-Kanal posten: Titel, Beschreibung, Seite, Gerät, den Screenshot und einen Link zu Snag.',
    url: 'Webhook-URL',
    urlHint:
      'Öffnen Sie in Discord die Kanaleinstellungen, Integrationen, Webhooks, erstellen Sie einen und kopieren Sie seine URL. Wer diese URL kennt, kann dort posten; Snag hält sie geheim.',
    urlInvalid: 'Fügen Sie eine Discord-Webhook-URL ein (https://discord.com/api/webhooks/…).',
    inert:
      'Nichts in einer Meldung pingt jemanden an (@everyone, @here, Nutzer oder Rollen) oder wird zu einem Link. Links zu Screenshots und Dateien sind ein Jahr gültig.',
  },
  azure: {
    description:
      'Für jede neue Meldung ein Azure-DevOps-Arbeitselement anlegen, mit angehängten Screenshots und einem Link zurück zu Snag.',
    host: 'Organisations-URL',
    hostHint:
      'https://dev.azure.com/ihre-organisation oder die Sammlungs-URL Ihres Azure DevOps Servers (https://server/tfs/DefaultCollection).',
    token: 'Persönliches Zugriffstoken',
    tokenHint:
      'Azure DevOps → Benutzereinstellungen → Persönliche Zugriffstoken: Bereiche „Work Items“ (Read & write), womit Snag auch die Service Hooks registrieren kann, und „Project and Team“ (Read).',
    project: 'Projekt',
    type: 'Arbeitselementtyp',
    typeHint:
      'Standard ist „Bug“. Snag schreibt die Beschreibung in „Repro Steps“, wo der Typ dieses Feld hat.',
  },
};

export const integrationTexts: Record<Lang, IntegrationTexts> = { en, de };

/**
 * What a vendor fake records of each request it receives: the fakes (fake.ts) keep it for the tests, and the
 * `/_fake` page (inspect.ts) shows it; both import it from here so neither imports the other for it.
 */
export interface RecordedFile {
  field: string;
  name: string;
  size: number;
  type: string;
}

export interface RecordedRequest {
  /** When it arrived (ISO 8601). */
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON, form fields or multipart's text fields; raw byte count for anything else. */
  body: unknown;
  files: RecordedFile[];
}

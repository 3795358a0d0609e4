/**
 * The Adaptive Card check the Teams fake and the card's unit test share: Microsoft's schema 1.5.0
 * (adaptive-card.schema-1.5.0.json, a verbatim copy of ../shared/api-specs/teams/, JSON Schema draft-06,
 * strict: an unknown property fails) through ajv, a maintained validator, with its draft-06 meta schema.
 * Formats (`uri-reference`) are not checked by the schema here; the test checks the card's links itself.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };

let cached: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (cached) return cached;
  const schema = JSON.parse(
    readFileSync(new URL('./adaptive-card.schema-1.5.0.json', import.meta.url), 'utf8'),
  );
  // Its root names itself with draft-04's `id`, which ajv refuses under draft-06 (`$id`); nothing refers to it.
  delete schema.id;
  // The schema's own keywords (`version`, `features`, `examples`…) are annotations, not errors.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addMetaSchema(draft06);
  cached = ajv.compile(schema);
  return cached;
}

/** The schema's complaints about `card` (empty when it is a valid Adaptive Card 1.5). */
export function adaptiveCardErrors(card: unknown): string[] {
  const validate = validator();
  if (validate(card)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

import { z } from 'zod';
import { formatIssues, jsonSchemaOf } from './client.js';
import { JudgeError, JudgeErrorCode } from './errors.js';

/** What a verify function sees beside the parsed answer. */
export interface VerifyContext {
  /** Expected values of the item (or of the template when the item has none). */
  expected: Readonly<Record<string, unknown>> | undefined;
  question: string;
  response: string;
}

/**
 * An answer template: the fields a response is parsed into (a zod object schema, with optional
 * field descriptions), and how the parsed answer is judged: a verify function, or expected values.
 */
export interface Template<Schema extends z.ZodObject = z.ZodObject> {
  schema: Schema;
  /** Name used for the schema in `response_format` (default `answer`). */
  name?: string;
  /** Values the parsed answer must match, field by field; an item's own `expected` wins. */
  expected?: Readonly<Partial<z.output<Schema>>> & Readonly<Record<string, unknown>>;
  /** Decides whether the parsed answer is right; takes precedence over expected values. */
  verify?: (parsed: z.output<Schema>, context: VerifyContext) => boolean | Promise<boolean>;
}

/** Types a template with its schema, so `verify` and `expected` see the parsed shape. */
export function defineTemplate<Schema extends z.ZodObject>(
  template: Template<Schema>,
): Template<Schema> {
  return template;
}

/** A field of a template, as the prompts describe it. */
export interface TemplateField {
  name: string;
  /** A short type description such as `string`, `integer` or `array of string`. */
  type: string;
  description: string | undefined;
  required: boolean;
}

function kindOf(value: unknown): string {
  const definition = (value as { _zod?: { def?: { type?: unknown } } } | null)?._zod?.def;
  if (typeof definition?.type === 'string') return `a zod ${definition.type} schema`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Checks that a template is usable: a zod object schema with at least one field. Throws a
 * {@link JudgeError} with code `INVALID_TEMPLATE` naming what is wrong otherwise.
 */
export function validateTemplate(template: unknown): asserts template is Template {
  if (typeof template !== 'object' || template === null) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `a template must be an object with a zod object schema, got ${kindOf(template)}`,
    );
  }
  const schema = (template as { schema?: unknown }).schema;
  const type = (schema as { _zod?: { def?: { type?: unknown } } } | undefined)?._zod?.def?.type;
  if (type !== 'object') {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `a template schema must be a zod object schema (z.object), got ${schema === undefined ? 'no schema' : kindOf(schema)}`,
    );
  }
  if (Object.keys((schema as z.ZodObject).shape).length === 0) {
    throw new JudgeError(JudgeErrorCode.INVALID_TEMPLATE, 'a template schema has no fields');
  }
  const verify = (template as { verify?: unknown }).verify;
  if (verify !== undefined && typeof verify !== 'function') {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `a template's verify must be a function, got ${kindOf(verify)}`,
    );
  }
  const expected = (template as { expected?: unknown }).expected;
  if (
    expected !== undefined &&
    (typeof expected !== 'object' || expected === null || Array.isArray(expected))
  ) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `a template's expected values must be an object, got ${kindOf(expected)}`,
    );
  }
}

const fieldsBySchema = new WeakMap<z.ZodObject, TemplateField[]>();

/** The fields of a template schema, with their types, descriptions and whether they are required. */
export function templateFields(schema: z.ZodObject): readonly TemplateField[] {
  const cached = fieldsBySchema.get(schema);
  if (cached) return cached;
  const fields = Object.entries(schema.shape).map(([name, field]) => {
    const type = field as z.ZodType;
    return {
      name,
      type: describeType(jsonSchemaOf(type)),
      description: type.description,
      required: !type.isOptional(),
    };
  });
  fieldsBySchema.set(schema, fields);
  return fields;
}

function describeType(json: Record<string, unknown> | undefined): string {
  if (!json) return 'value';
  if (Array.isArray(json.enum)) {
    return `one of ${json.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if ('const' in json) return `exactly ${JSON.stringify(json.const)}`;
  if (Array.isArray(json.anyOf)) {
    return json.anyOf.map((branch) => describeType(branch as Record<string, unknown>)).join(' or ');
  }
  if (json.type === 'array') {
    return `array of ${describeType(json.items as Record<string, unknown> | undefined)}`;
  }
  if (Array.isArray(json.type)) return json.type.join(' or ');
  if (typeof json.type === 'string') return json.type;
  return 'value';
}

/** Options of {@link templateFromJsonSchema}. */
export interface JsonSchemaTemplateOptions {
  /** Where the schema came from (a file name), used in error messages. */
  source?: string;
  name?: string;
}

/**
 * Builds a template from a JSON Schema whose top level is an object schema (the form the CLI
 * reads). Anything else is rejected with a {@link JudgeError} `INVALID_TEMPLATE` naming the source.
 */
export function templateFromJsonSchema(
  json: unknown,
  options: JsonSchemaTemplateOptions = {},
): Template {
  const source = options.source ?? 'template';
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `${source}: a template must be a JSON Schema object, got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : `a ${typeof json}`}`,
    );
  }
  const record = json as Record<string, unknown>;
  if (record.type !== 'object') {
    const got = record.type === undefined ? 'no "type"' : `type ${JSON.stringify(record.type)}`;
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `${source}: the top level of a template schema must be {"type": "object", "properties": …}, got ${got}`,
    );
  }
  const properties = record.properties;
  if (
    typeof properties !== 'object' ||
    properties === null ||
    Array.isArray(properties) ||
    Object.keys(properties).length === 0
  ) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `${source}: a template schema needs at least one field under "properties"`,
    );
  }
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(record as z.core.JSONSchema.JSONSchema);
  } catch (error) {
    throw new JudgeError(
      JudgeErrorCode.INVALID_TEMPLATE,
      `${source}: unsupported JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const template: Template = {
    schema: schema as z.ZodObject,
    name: options.name ?? (typeof record.title === 'string' ? record.title : undefined),
  };
  validateTemplate(template);
  return template;
}

/** The outcome of comparing a parsed answer to expected values. */
export interface ExpectedComparison {
  match: boolean;
  /** One line per field that differs: `field: expected …, got …`. */
  mismatches: string[];
}

/**
 * Compares a parsed answer to expected values, field by field over the expected fields only:
 * strings ignore case and surrounding or repeated whitespace, numbers compare by value, arrays
 * element by element in order, objects recursively.
 */
export function compareToExpected(
  parsed: Readonly<Record<string, unknown>>,
  expected: Readonly<Record<string, unknown>>,
): ExpectedComparison {
  const mismatches: string[] = [];
  for (const [field, want] of Object.entries(expected)) {
    const got = parsed[field];
    if (!sameValue(got, want)) {
      mismatches.push(`${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return { match: mismatches.length === 0, mismatches };
}

function normalizeText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

function sameValue(got: unknown, want: unknown): boolean {
  if (typeof want === 'string')
    return typeof got === 'string' && normalizeText(got) === normalizeText(want);
  if (typeof want === 'number') {
    return typeof got === 'number' && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));
  }
  if (Array.isArray(want)) {
    return (
      Array.isArray(got) &&
      got.length === want.length &&
      want.every((element, index) => sameValue(got[index], element))
    );
  }
  if (typeof want === 'object' && want !== null) {
    if (typeof got !== 'object' || got === null || Array.isArray(got)) return false;
    return compareToExpected(got as Record<string, unknown>, want as Record<string, unknown>).match;
  }
  return got === want;
}

const partialBySchema = new WeakMap<z.ZodObject, z.ZodObject>();

/** Parses expected values of an item against the template, surfacing zod issues by field. */
export function checkExpected(
  schema: z.ZodObject,
  expected: Readonly<Record<string, unknown>>,
): string | undefined {
  let partial = partialBySchema.get(schema);
  if (!partial) {
    partial = schema.partial();
    partialBySchema.set(schema, partial);
  }
  const result = partial.safeParse(expected);
  return result.success ? undefined : formatIssues(result.error.issues);
}

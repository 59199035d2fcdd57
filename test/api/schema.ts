import { openApiDocument } from '../../src/api/openapi.js';

/**
 * A small JSON-schema subset validator for the shapes the OpenAPI document uses: type (with
 * type arrays for nullable), properties, required, items, enum, $ref, allOf, oneOf, format
 * date-time. Returns the list of problems (empty = valid), each with a JSON path.
 */
type Schema = Record<string, unknown>;
const components = openApiDocument.components.schemas as unknown as Record<string, Schema>;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export function validate(value: unknown, schema: Schema, path = '$'): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) return [`${path}: unknown $ref ${schema.$ref}`];
    return validate(value, target, path);
  }
  const errs: string[] = [];
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf as Schema[]) errs.push(...validate(value, s, path));
  if (Array.isArray(schema.oneOf)) {
    const ok = (schema.oneOf as Schema[]).filter((s) => validate(value, s, path).length === 0).length;
    if (ok !== 1) errs.push(`${path}: matches ${ok} of oneOf, want exactly 1`);
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return [...errs, `${path}: type ${t}, want ${types.join('|')}`];
  }
  if (Array.isArray(schema.enum) && !(schema.enum as unknown[]).includes(value)) errs.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (schema.format === 'date-time' && typeof value === 'string' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
    errs.push(`${path}: ${JSON.stringify(value)} is not a date-time`);
  }
  if (typeOf(value) === 'object') {
    const o = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in o)) errs.push(`${path}: missing ${r}`);
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [k, s] of Object.entries(props)) if (k in o) errs.push(...validate(o[k], s, `${path}.${k}`));
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errs.push(...validate(v, schema.items as Schema, `${path}[${i}]`)));
  return errs;
}

/** The response schema the document declares for a path, method and status. */
export function responseSchema(path: string, method: string, status: number): Schema {
  const op = (openApiDocument.paths as unknown as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>)[path]?.[method];
  const res = op?.responses[String(status)];
  if (!res) throw new Error(`OpenAPI has no ${method} ${path} ${status}`);
  const c = res.content?.['application/json'];
  if (!c) throw new Error(`OpenAPI ${method} ${path} ${status} has no JSON body`);
  return c.schema;
}

/** Validates a parsed body against the document; throws with every problem listed. */
export function expectMatchesOpenApi(path: string, method: string, status: number, body: unknown): void {
  const errs = validate(body, responseSchema(path, method, status));
  if (errs.length) throw new Error(`${method.toUpperCase()} ${path} ${status} does not match the OpenAPI document:\n${errs.slice(0, 20).join('\n')}`);
}

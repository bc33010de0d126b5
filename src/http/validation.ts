import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type FieldError } from '../domain/errors.js';
import { counted } from '../lib/text.js';

/** A refusal lists its faulty fields; `unlisted` counts the faults found beyond those listed (message validation lists at most 100 fields). */
export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[]; readonly unlisted?: number };

/**
 * Route-level validator compiler: the route's declared schema feeds the OpenAPI document, while
 * validation runs the domain validator built from that same schema plus the rules JSON Schema
 * cannot say (ISO 4217 decimals, required-if). Its result replaces the body, so handlers receive
 * the validated, typed message; failures become one ErrorDetail listing every bad field.
 */
export function domainValidator<T>(validate: (body: unknown) => Validated<T>, messageName: string): FastifySchemaCompiler<unknown> {
  return () => (data: unknown) => {
    const result = validate(data);
    if (result.ok) return { value: result.value };
    const count = result.errors.length;
    const unlisted = result.unlisted ?? 0;
    const beyond = unlisted === 0 ? '' : `; ${counted(unlisted, 'more fault')} ${unlisted === 1 ? 'was' : 'were'} found and not listed (an answer lists at most ${counted(count, 'field')})`;
    return {
      error: new ApiError('VALIDATION_FAILED', `${counted(count, 'field')} of the ${messageName} ${count === 1 ? 'violates' : 'violate'} the interface rules${beyond}`, result.errors),
    };
  };
}

import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type FieldError } from '../domain/errors.js';

export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

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
    return {
      error: new ApiError('VALIDATION_FAILED', `${count} field${count === 1 ? '' : 's'} of the ${messageName} violate the interface rules`, result.errors),
    };
  };
}

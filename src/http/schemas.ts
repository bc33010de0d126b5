import { Type } from '@sinclair/typebox';

/** Response schemas shared by the routes, for the OpenAPI document. */
export const ErrorDetailSchema = Type.Object(
  {
    schema: Type.Literal('ErrorDetail'),
    message: Type.String({ description: 'Concise description of the problem' }),
    detail: Type.Optional(Type.String({ description: 'Longer explanation' })),
    errors: Type.Array(
      Type.Object({
        field: Type.String({ description: 'JSON pointer to the offending field of the request body' }),
        message: Type.String(),
      }),
      { description: 'Every violated field, not only the first' },
    ),
  },
  { $id: 'ErrorDetail', description: 'Error response body (CONTRACT §5)' },
);

const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: Type.Ref('ErrorDetail') } } });

/** The error responses every authenticated API operation may give. */
export const commonErrorResponses = {
  400: errorRef('Unparseable JSON or a broken interface rule; `errors` names every bad field'),
  401: errorRef('Missing or bad credentials'),
  403: errorRef('Authenticated but not allowed (other institution, scheme not enabled)'),
  409: errorRef('messageIdentification or uetr already used with a different payload'),
  413: errorRef('Body too large'),
  415: errorRef('Content-Type is not application/json'),
  422: errorRef('Well formed, but the scheme does not support the operation'),
  429: errorRef('Rate limit exceeded (see Retry-After)'),
  503: errorRef('Not ready or overloaded; the identical request may be retried (see Retry-After)'),
} as const;

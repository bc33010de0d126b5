import { ApiError } from '../domain/errors.js';
/**
 * Route-level validator compiler: the route's declared schema feeds the OpenAPI document, while
 * validation runs the domain validator built from that same schema plus the rules JSON Schema
 * cannot say (ISO 4217 decimals, required-if). Its result replaces the body, so handlers receive
 * the validated, typed message; failures become one ErrorDetail listing every bad field.
 */
export function domainValidator(validate, messageName) {
    return () => (data) => {
        const result = validate(data);
        if (result.ok)
            return { value: result.value };
        const count = result.errors.length;
        const unlisted = result.unlisted ?? 0;
        const beyond = unlisted === 0 ? '' : `; ${unlisted} more fault${unlisted === 1 ? ' was' : 's were'} found and not listed (an answer lists at most ${count} fields)`;
        return {
            error: new ApiError('VALIDATION_FAILED', `${count} field${count === 1 ? '' : 's'} of the ${messageName} violate the interface rules${beyond}`, result.errors),
        };
    };
}
//# sourceMappingURL=validation.js.map
/** RFC 6901 JSON pointers, the `field` of every ErrorDetail entry. */
/** One reference token, escaped: `~` becomes `~0` and `/` becomes `~1`. */
export function escapePointerToken(token) {
    return token.replaceAll('~', '~0').replaceAll('/', '~1');
}
/** The pointer for a path of keys and indices; the empty path is the whole document (""). */
export function jsonPointer(path) {
    let pointer = '';
    for (const token of path)
        pointer += `/${typeof token === 'number' ? token : escapePointerToken(token)}`;
    return pointer;
}
//# sourceMappingURL=json-pointer.js.map
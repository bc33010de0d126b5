/**
 * Texts cut to a scheme's limit at a word boundary: a reason the integrator wrote ("Account closed
 * at the customer's request") reaches the counterpart as whole words, never ending mid-word. A
 * single word longer than the limit is cut at the limit (there is no boundary to cut at).
 * Lengths count characters (code points), as the XSD's maxLength does.
 */
export function cutAtWord(text, max) {
    const characters = [...text.trim()];
    if (characters.length <= max)
        return characters.join('');
    const head = characters.slice(0, max + 1).join('');
    const boundary = head.search(/\s\S*$/);
    const cut = boundary > 0 ? head.slice(0, boundary) : characters.slice(0, max).join('');
    return cut.trimEnd();
}
//# sourceMappingURL=text.js.map
import { SaxesParser } from 'saxes';
import { assert } from '../../lib/assert.js';
export const ISO20022_NAMESPACE_PREFIX = 'urn:iso:std:iso:20022:tech:xsd:';
/** Larger inbound documents are refused before parsing: one-transaction status reports are a few kilobytes. */
export const XML_DOCUMENT_BYTES_MAX = 1_048_576;
/** The Document start tag with its ISO 20022 namespace declaration (default or prefixed). */
const DOCUMENT_NAMESPACE = /<(?:[A-Za-z_][\w.-]*:)?Document\b[^>]*?\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*(["'])(urn:iso:std:iso:20022:tech:xsd:[^"']+)\1/;
/**
 * The message name of a document (e.g. `pain.014.001.09`), told from the namespace of its
 * Document start tag without parsing it, so a receiver can hand each document to the reader of
 * its kind (which parses it and checks the name again). Undefined when no ISO 20022 namespace is found.
 */
export function documentMessageName(xml) {
    return DOCUMENT_NAMESPACE.exec(xml)?.[2]?.slice(ISO20022_NAMESPACE_PREFIX.length);
}
/**
 * The document's own identification, read without parsing it: the first GrpHdr/MsgId, or for a
 * case message (camt.029, camt.056) its Assgnmt/Id; undefined when it has neither.
 */
export function documentMessageId(xml) {
    return (MESSAGE_ID.exec(xml) ?? ASSIGNMENT_ID.exec(xml))?.[1];
}
const MESSAGE_ID = /<(?:[\w.-]+:)?MsgId>([^<]{1,35})<\//;
const ASSIGNMENT_ID = /<(?:[\w.-]+:)?Assgnmt>\s*<(?:[\w.-]+:)?Id>([^<]{1,35})<\//;
/** Nesting deeper than this is refused; ISO 20022 payment messages stay well under it. */
const XML_DEPTH_MAX = 48;
/**
 * `urn:iso:std:iso:20022:tech:xsd:<messageName>` document with `root` as its only child, indented
 * by two spaces. Absent values, empty texts and elements left with nothing in them are left out
 * (ISO 20022 text types have a minimum length of 1: an empty element is never valid), so optional
 * elements are simply not set.
 */
export function writeDocument(messageName, root, body) {
    const out = ['<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="', escapeAttribute(ISO20022_NAMESPACE_PREFIX + messageName), '">'];
    if (!writeElement(out, root, body, '\n  '))
        out.push('\n  <', root, '></', root, '>');
    out.push('\n</Document>\n');
    return out.join('');
}
/**
 * Quotes too, as the documents have always been written (both are also legal unescaped in text);
 * a carriage return as a reference, which a reader would otherwise turn into a line feed.
 */
const TEXT_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;', '"': '&quot;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES = { ...TEXT_ESCAPES, '\t': '&#9;', '\n': '&#10;' };
function escapeText(value) {
    return /[&<>'"\r]/.test(value) ? value.replace(/[&<>'"\r]/g, (char) => TEXT_ESCAPES[char] ?? char) : value;
}
/** Quoted with `"`; whitespace other than spaces as character references, which attribute normalisation would otherwise turn into spaces. */
function escapeAttribute(value) {
    return /[&<>'"\t\n\r]/.test(value) ? value.replace(/[&<>'"\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char) : value;
}
/**
 * Appends one element (or, for a list, one element per item) to `out`, each on a line of its own
 * (`lineStart`: a line feed and the indent). A string is the element's text; an object holds its
 * attributes (`@_name`), its text (`#text`) and its child elements in key order. Returns false,
 * having appended nothing, when the element has neither text nor any child element to write.
 * The pieces are joined once, at the end: no part of the document is copied twice.
 */
function writeElement(out, name, value, lineStart) {
    if (value === undefined || value === '')
        return false;
    if (typeof value === 'string') {
        out.push(lineStart, '<', name, '>', escapeText(value), '</', name, '>');
        return true;
    }
    if (Array.isArray(value)) {
        let written = false;
        for (const item of value)
            written = writeElement(out, name, item, lineStart) || written;
        return written;
    }
    const element = value;
    const start = out.length;
    out.push(lineStart, '<', name);
    let text = '';
    for (const key of Object.keys(element)) {
        if (!key.startsWith('@_') && key !== '#text')
            continue;
        const item = element[key];
        if (item === undefined || item === '')
            continue;
        assert(typeof item === 'string', `${name}: ${key} must be text`);
        if (key === '#text')
            text = item;
        else
            out.push(' ', key.slice(2), '="', escapeAttribute(item), '"');
    }
    out.push('>');
    const childLineStart = `${lineStart}  `;
    let children = false;
    for (const key of Object.keys(element)) {
        if (key.startsWith('@_') || key === '#text')
            continue;
        children = writeElement(out, key, element[key], childLineStart) || children;
    }
    if (!children) {
        if (text === '') {
            out.length = start;
            return false;
        }
        out.push(escapeText(text), '</', name, '>');
        return true;
    }
    // Mixed content (text beside child elements) does not occur in ISO 20022; written after them.
    if (text !== '')
        out.push(childLineStart, escapeText(text));
    out.push(lineStart, '</', name, '>');
    return true;
}
/**
 * Parses an ISO 20022 document and names its message from the namespace (e.g. `pacs.002.001.10`).
 * A DOCTYPE is refused outright: ISO 20022 messages carry none, and refusing it rules out entity
 * expansion from a counterpart's document.
 */
export function readDocument(xml) {
    if (Buffer.byteLength(xml, 'utf8') > XML_DOCUMENT_BYTES_MAX)
        return { ok: false, error: `document larger than ${XML_DOCUMENT_BYTES_MAX} bytes` };
    if (/<!DOCTYPE/i.test(xml))
        return { ok: false, error: 'document carries a DOCTYPE' };
    let parsed;
    try {
        parsed = xmlToTree(xml);
    }
    catch (error) {
        return { ok: false, error: `not well-formed XML: ${error instanceof Error ? error.message : String(error)}` };
    }
    const document = isElement(parsed) ? parsed.Document : undefined;
    if (!isElement(document))
        return { ok: false, error: 'no Document element' };
    // The parser drops namespace declarations along with prefixes, so the namespace is read from the Document start tag itself.
    const messageName = documentMessageName(xml);
    if (messageName === undefined)
        return { ok: false, error: 'Document is not in an ISO 20022 namespace' };
    const roots = Object.keys(document).filter((key) => !key.startsWith('@_'));
    const root = roots[0];
    if (roots.length !== 1 || root === undefined)
        return { ok: false, error: 'Document must hold exactly one message element' };
    const body = document[root];
    if (!isElement(body))
        return { ok: false, error: `${root} has no content` };
    return { ok: true, messageName, root, body };
}
/** `prefix:Name` read as `Name`: ISO 20022 element and attribute names are unique without their namespace prefix. */
function localName(name) {
    const colon = name.indexOf(':');
    return colon < 0 ? name : name.slice(colon + 1);
}
/**
 * The document as plain objects: an element is its trimmed text when it has neither attributes
 * nor children; otherwise an object of its children by local name (a repeated child becomes a
 * list), its attributes as `@_name` (namespace declarations dropped) and its non-blank text as
 * `#text`. Comments and processing instructions are skipped. Throws on anything not well-formed,
 * and on nesting deeper than XML_DEPTH_MAX.
 */
function xmlToTree(xml) {
    const parser = new SaxesParser();
    const root = { name: '', attributes: {}, children: undefined, text: '' };
    const stack = [root];
    parser.on('opentag', (tag) => {
        if (stack.length > XML_DEPTH_MAX)
            throw new Error(`elements nested deeper than ${XML_DEPTH_MAX}`);
        const attributes = {};
        for (const [name, value] of Object.entries(tag.attributes)) {
            if (name === 'xmlns' || name.startsWith('xmlns:'))
                continue;
            attributes[`@_${localName(name)}`] = value;
        }
        stack.push({ name: localName(tag.name), attributes, children: undefined, text: '' });
    });
    const addText = (text) => {
        stack[stack.length - 1].text += text;
    };
    parser.on('text', addText);
    parser.on('cdata', addText);
    parser.on('closetag', () => {
        const element = stack.pop();
        const parent = stack[stack.length - 1];
        const text = element.text.trim();
        let value;
        if (element.children === undefined && Object.keys(element.attributes).length === 0) {
            value = text;
        }
        else {
            const node = { ...element.children, ...element.attributes };
            if (text !== '')
                node['#text'] = text;
            value = node;
        }
        parent.children ??= {};
        const earlier = parent.children[element.name];
        parent.children[element.name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
    });
    parser.on('error', (error) => {
        throw error;
    });
    parser.write(xml).close();
    return root.children ?? {};
}
/** What stands at `path`, taking the first of repeated elements on the way. */
function at(node, path) {
    let current = node;
    for (const tag of path) {
        const element = firstOf(current);
        if (!isElement(element))
            return undefined;
        current = element[tag];
    }
    return firstOf(current);
}
/** The element at `path`, taking the first of repeated elements on the way. */
export function child(node, ...path) {
    const found = at(node, path);
    return isElement(found) ? found : undefined;
}
/** Every occurrence of the repeated element `tag` under `node`. */
export function children(node, tag) {
    const element = firstOf(node);
    if (!isElement(element))
        return [];
    const value = element[tag];
    const list = Array.isArray(value) ? value : [value];
    return list.filter(isElement);
}
/** The text at `path` (an element's text, or `#text` beside its attributes), first occurrence. */
export function text(node, ...path) {
    const found = at(node, path);
    if (typeof found === 'string')
        return found;
    if (isElement(found) && typeof found['#text'] === 'string')
        return found['#text'];
    return undefined;
}
/** Every text leaf of an element tree with its path, attributes included (used by character-set rules). */
export function* textLeaves(node, path = '') {
    if (typeof node === 'string') {
        yield { path, value: node };
    }
    else if (Array.isArray(node)) {
        for (const item of node)
            yield* textLeaves(item, path);
    }
    else if (isElement(node)) {
        for (const [key, value] of Object.entries(node))
            yield* textLeaves(value, key === '#text' ? path : `${path}/${key}`);
    }
}
function firstOf(value) {
    return Array.isArray(value) ? value[0] : value;
}
function isElement(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
//# sourceMappingURL=xml.js.map
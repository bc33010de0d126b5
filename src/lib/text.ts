/**
 * A text cut to a limit at a word boundary: a reason someone wrote ("Account closed at the
 * customer's request") reaches its reader as whole words, never ending mid-word. A first word
 * longer than the limit is cut at the limit (there is no boundary to cut at). Lengths count
 * characters (code points), as an XSD's maxLength does, so a character is never split. The text
 * is trimmed first. The one cutter of the service: scheme limits (Max35Text, Max105Text), the
 * interface's 35-character reason description.
 */
export function cutAtWord(text: string, max: number): string {
  const characters = [...text.trim()];
  if (characters.length <= max) return characters.join('');
  const head = characters.slice(0, max + 1).join('');
  const boundary = head.search(/\s\S*$/);
  const cut = boundary > 0 ? head.slice(0, boundary) : characters.slice(0, max).join('');
  return cut.trimEnd();
}

/** Longest reason text the interface carries whole (spec, Limits: "values over 35 characters may be truncated"). */
export const REASON_TEXT_CHARS_MAX = 35;

/** A reason text as the interface carries it: whole when it fits, else cut at a word boundary. */
export function reasonTextOf(text: string): string {
  return cutAtWord(text, REASON_TEXT_CHARS_MAX);
}

/** A count with its noun in the right number: `1 field`, `2 fields` (`plural` for nouns that do not take an s). */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

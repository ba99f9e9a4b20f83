/**
 * JSON for answers that hold one object many times over (a week of slots: 6,000 free slots made
 * of 130 distinct objects), written straight into bytes: each repeated part is serialised once
 * and copied wherever it recurs, and the text never exists as one JavaScript string, which
 * would have to be flattened and converted to bytes again before compressing or sending. The
 * bytes are exactly what `JSON.stringify` would give.
 */
import { isHolder, isRepeated } from '../handlers/repeated-parts.js';

/** Member names as JSON keys with their colon, the same few on every answer. */
const keyTexts = new Map<string, string>();

const keyText = (name: string) => {
  let text = keyTexts.get(name);
  if (text === undefined) keyTexts.set(name, (text = `${JSON.stringify(name)}:`));
  return text;
};

/** The largest answer written so far: the next one starts with room for as much. */
let largestAnswer = 64 * 1024;

class ByteWriter {
  #bytes = Buffer.allocUnsafe(largestAnswer);
  #length = 0;
  /** Text not written yet: the many short pieces (keys, separators, small values) are written together. */
  #pending = '';
  readonly #repeatedBytes = new Map<object, Buffer>();

  #reserve(count: number) {
    if (this.#length + count <= this.#bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + count));
    this.#bytes.copy(larger, 0, 0, this.#length);
    this.#bytes = larger;
  }

  #text(text: string) {
    this.#pending += text;
    if (this.#pending.length >= 16 * 1024) this.#flush();
  }

  #flush() {
    const text = this.#pending;
    this.#pending = '';
    // A UTF-16 code unit is at most three bytes of UTF-8.
    this.#reserve(text.length * 3);
    const code = text.charCodeAt(0);
    // Mostly the comma before a repeated part: one ASCII byte, stored without a call.
    if (text.length === 1 && code < 0x80) this.#bytes[this.#length++] = code;
    else if (text.length > 0) this.#length += this.#bytes.write(text, this.#length);
  }

  value(value: unknown) {
    if (typeof value !== 'object' || value === null) {
      // Only an array item can be what JSON cannot hold (holders skip such members): null, as JSON.stringify writes it.
      this.#text(JSON.stringify(value) ?? 'null');
    } else if (isRepeated(value)) {
      let bytes = this.#repeatedBytes.get(value);
      if (!bytes) this.#repeatedBytes.set(value, (bytes = Buffer.from(JSON.stringify(value))));
      this.#flush();
      this.#reserve(bytes.length);
      this.#bytes.set(bytes, this.#length);
      this.#length += bytes.length;
    } else if (Array.isArray(value)) {
      this.#text('[');
      for (let index = 0; index < value.length; index += 1) {
        if (index > 0) this.#text(',');
        this.value(value[index]);
      }
      this.#text(']');
    } else if (isHolder(value)) {
      let separator = '{';
      for (const name of Object.keys(value)) {
        const member: unknown = (value as Record<string, unknown>)[name];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        this.#text(separator + keyText(name));
        separator = ',';
        this.value(member);
      }
      this.#text(separator === '{' ? '{}' : '}');
    } else {
      this.#text(JSON.stringify(value));
    }
  }

  /** The bytes written (the buffer is the answer's own: it is compressed or sent later). */
  result(): Buffer {
    this.#flush();
    largestAnswer = Math.max(largestAnswer, this.#length);
    return this.#bytes.subarray(0, this.#length);
  }
}

/** The JSON of an answer marked `holding`, as bytes; undefined for any other answer (Fastify serialises those). */
export function answerBytes(answer: unknown): Buffer | undefined {
  if (typeof answer !== 'object' || answer === null || !isHolder(answer)) return undefined;
  const writer = new ByteWriter();
  writer.value(answer);
  return writer.result();
}

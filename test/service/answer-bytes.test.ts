import { describe, expect, it } from 'vitest';
import { holding, repeated } from '../../electron/service/handlers/repeated-parts.js';
import { answerBytes } from '../../electron/service/http/answer-bytes.js';

const asJson = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('answers written as bytes', () => {
  it('are the bytes JSON.stringify gives, repeated parts, nested holders and odd members included', () => {
    const free = repeated({ slotSpan: 1, label: 'Früh – “early”', startDateTime: '2026-03-26T08:00:00+0100', links: [], message: null });
    const other = repeated({ slotSpan: 1, label: null, nested: { deep: ['a', 2, true] } });
    const row = (name: string) =>
      holding({
        slots: [
          free,
          { slotSpan: 3, isReserved: true, reservation: { title: 'Ünïcødé 🚀', escaped: 'quote " back \\ tab \t' } },
          free,
          other,
          free,
        ],
        skipped: undefined,
        resourceName: name,
        empty: holding({}),
        emptyList: [],
        oddItems: [undefined, () => 1, Symbol('gone'), Number.NaN, -0, 1e21, null],
        links: [{ href: 'http://127.0.0.1/x', title: 'get_resource' }],
        message: null,
      });
    const answer = holding({
      dates: [holding({ date: '2026-03-26', resources: [row('Room 1'), row('Raum Ä')] })],
      links: [],
      message: null,
    });
    expect(answerBytes(answer)?.equals(asJson(answer))).toBe(true);
  });

  it('grow past the room the largest answer so far left', () => {
    const cell = repeated({ text: 'x'.repeat(1000) });
    const answer = holding({ rows: Array.from({ length: 5000 }, (_, index) => (index % 2 ? cell : { index, text: 'ÿ'.repeat(50) })) });
    expect(answerBytes(answer)?.equals(asJson(answer))).toBe(true);
    const small = holding({ rows: [cell] });
    expect(answerBytes(small)?.equals(asJson(small))).toBe(true);
  });

  it('are left to Fastify for an answer not marked as holding repeated parts', () => {
    expect(answerBytes({ dates: [], links: [], message: null })).toBeUndefined();
    expect(answerBytes(repeated({ slotSpan: 1 }))).toBeUndefined();
    expect(answerBytes(null)).toBeUndefined();
  });
});

import fc from 'fast-check';
import { envelopeText, envelopeTextParts, envelopeWithPayloadText } from './envelope-text';
import type { EventEnvelope } from './subject';

describe('an envelope whose payload is kept as its JSON text', () => {
  const head = { id: 'e1', subject: 'sync.evt.object-event.v2', occurredAt: '2026-11-30T00:00:00.000Z', correlationId: 'c1' };

  it('is written as the same JSON as the envelope with the payload parsed, the text used as it is', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string(), { nil: undefined }), (payload, traceparent) => {
        const text = JSON.stringify(payload);
        const plain: EventEnvelope = { ...head, ...(traceparent === undefined ? {} : { traceparent }), payload };
        const kept = envelopeWithPayloadText({ ...head, ...(traceparent === undefined ? {} : { traceparent }) }, text);
        expect(JSON.parse(envelopeText(kept))).toEqual(JSON.parse(envelopeText(plain)));
        expect(envelopeText(kept)).toContain(`"payload":${text}}`);
      }),
    );
  });

  it('keeps the text byte for byte (PostgreSQL writes jsonb its own way) and still answers payload, parsed once', () => {
    const text = '{"events": [{"n": 1}]}';
    const kept = envelopeWithPayloadText(head, text);
    expect(envelopeText(kept)).toBe(`{"id":"e1","subject":"sync.evt.object-event.v2","occurredAt":"2026-11-30T00:00:00.000Z","correlationId":"c1","payload":${text}}`);
    // In pieces for a writer that encodes each into its place: the stored text one of them, untouched.
    expect(envelopeTextParts(kept)).toHaveLength(3);
    expect(envelopeTextParts(kept)[1]).toBe(text);
    expect(envelopeTextParts(kept).join('')).toBe(envelopeText(kept));
    expect(kept.payload).toEqual({ events: [{ n: 1 }] });
    expect(kept.payload).toBe(kept.payload);
    // Whoever writes it with JSON.stringify gets the same message.
    expect(JSON.parse(JSON.stringify(kept))).toEqual(JSON.parse(envelopeText(kept)));
  });

  it('writes an envelope made as an object as JSON.stringify does', () => {
    const plain: EventEnvelope = { ...head, payload: { n: 1 } };
    expect(envelopeText(plain)).toBe(JSON.stringify(plain));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { open, seal } from '../../src/lib/sealed-box.js';

void describe('sealed box', () => {
  void it('opens with the secret and purpose it was sealed under, and with nothing else', () => {
    const box = seal('the spent refresh token', 'refresh-token successor', '{"access_token":"a"}');
    assert.equal(open('the spent refresh token', 'refresh-token successor', box), '{"access_token":"a"}');
    assert.equal(open('another token', 'refresh-token successor', box), undefined, 'another secret');
    assert.equal(open('the spent refresh token', 'another purpose', box), undefined, 'another purpose');
    assert.ok(!box.includes('access_token'), 'the text is not in the box in clear');
  });

  void it('refuses a box altered anywhere, or malformed, instead of opening it', () => {
    const box = seal('secret', 'purpose', 'a text of some length');
    const parts = box.split('.');
    for (let index = 1; index < parts.length; index += 1) {
      const altered = [...parts];
      const part = altered[index] ?? '';
      altered[index] = `${part.slice(0, -2)}${part.endsWith('AA') ? 'BB' : 'AA'}`;
      assert.equal(open('secret', 'purpose', altered.join('.')), undefined, `part ${index} altered`);
    }
    for (const malformed of ['', 'v1', 'v2.a.b.c', `${box}.extra`]) assert.equal(open('secret', 'purpose', malformed), undefined, malformed);
  });

  void it('seals one text twice into two different boxes (a fresh IV each time)', () => {
    assert.notEqual(seal('secret', 'purpose', 'text'), seal('secret', 'purpose', 'text'));
  });
});

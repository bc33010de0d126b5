import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { startBanner } from '../../src/config/banner.js';

/** REGPAY_DEMO_RECEIVER: the one-line way to send the demo's callbacks and events to a receiver of one's own. */
void describe('the demo with REGPAY_DEMO_RECEIVER', () => {
  void it("sends the demo integrator's callbacks and events under the receiver's base URL, and says so in the banner", async () => {
    const config = await loadConfig({ argv: [], env: { REGPAY_DEMO_RECEIVER: 'http://127.0.0.1:9090/' } });
    const [bank] = config.integrators;
    assert.equal(bank?.partnerApiUrl, 'http://127.0.0.1:9090/partner-api/v1');
    assert.equal(bank?.eventsApiUrl, 'http://127.0.0.1:9090/events-api/v1');
    assert.equal(config.demoReceiver, 'http://127.0.0.1:9090');
    const banner = startBanner(config, 'http://127.0.0.1:8080').join('\n');
    assert.match(banner, /receiver:\s+http:\/\/127\.0\.0\.1:9090\s/);
    assert.doesNotMatch(banner, /demo inbox:/);
  });

  void it('sends them to the demo inbox without it', async () => {
    const config = await loadConfig({ argv: [], env: {} });
    assert.equal(config.integrators[0]?.partnerApiUrl, 'http://127.0.0.1:8080/demo/inbox/partner-api/v1');
    assert.equal(config.demoReceiver, undefined);
  });

  void it('refuses to start with a value that is no http(s) URL, naming the variable', async () => {
    await assert.rejects(loadConfig({ argv: [], env: { REGPAY_DEMO_RECEIVER: '127.0.0.1:9090' } }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.problems.join('\n'), /^REGPAY_DEMO_RECEIVER: "127\.0\.0\.1:9090" is not an http\(s\) URL/);
      return true;
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressSet, isAdminRoute, isOperationsRoute, parseAddress, resolveClientAddress } from '../../src/http/plugins/allowlist.js';

void describe('address sets', () => {
  const set = new AddressSet(['10.0.0.0/8', '192.0.2.7/32', '2001:db8::/32', '::ffff:198.51.100.0/120']);

  void it('matches IPv4 and IPv6 addresses by their blocks', () => {
    assert.equal(set.contains('10.200.3.4'), true);
    assert.equal(set.contains('11.0.0.1'), false);
    assert.equal(set.contains('192.0.2.7'), true);
    assert.equal(set.contains('192.0.2.8'), false);
    assert.equal(set.contains('2001:db8:1::5'), true);
    assert.equal(set.contains('2001:db9::5'), false);
  });

  void it('matches an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    assert.equal(set.contains('::ffff:10.1.2.3'), true);
    assert.equal(set.contains('::ffff:11.1.2.3'), false);
  });

  void it('matches an IPv4 address against an IPv4-mapped IPv6 block', () => {
    assert.equal(set.contains('198.51.100.20'), true);
    assert.equal(set.contains('198.51.101.20'), false);
  });

  void it('honours a prefix that is not a multiple of 8 bits, to the bit', () => {
    const v4 = new AddressSet(['10.0.0.0/28', '172.16.0.0/12', '192.0.2.128/25']);
    for (const inside of ['10.0.0.0', '10.0.0.15', '172.16.0.1', '172.31.255.255', '192.0.2.128', '192.0.2.255']) assert.equal(v4.contains(inside), true, inside);
    for (const outside of ['10.0.0.16', '10.0.0.200', '172.15.255.255', '172.32.0.0', '192.0.2.127', '192.0.2.1']) assert.equal(v4.contains(outside), false, outside);
    const v6 = new AddressSet(['fe80::/10', '2001:db8:abc0::/44']);
    for (const inside of ['fe80::1', 'febf:ffff::1', '2001:db8:abc0::1', '2001:db8:abcf:ffff::1']) assert.equal(v6.contains(inside), true, inside);
    for (const outside of ['fe00::1', 'fec0::1', 'fe7f::1', '2001:db8:abd0::1', '2001:db8:abb0::1']) assert.equal(v6.contains(outside), false, outside);
    const mapped = new AddressSet(['::ffff:10.0.0.0/124']);
    assert.equal(mapped.contains('10.0.0.15'), true, 'an IPv4-mapped block keeps its prefix beyond the 96 mapped bits');
    assert.equal(mapped.contains('10.0.0.16'), false);
  });

  void it('takes an IPv4-mapped block of /96 as all of IPv4, and a shorter one as an IPv6 block', () => {
    assert.equal(new AddressSet(['::ffff:0:0/96']).contains('192.0.2.1'), true);
    assert.equal(new AddressSet(['::ffff:0:0/95']).contains('192.0.2.1'), false);
    assert.equal(new AddressSet(['::ffff:0:0/95']).contains('::fffe:0:1'), true);
  });

  void it('keeps an IPv6 block of /96 or longer that maps no IPv4 block an IPv6 block', () => {
    const v6 = new AddressSet(['2001:db8::7/128', '2001:db8::100/120', '::/96']);
    for (const inside of ['2001:db8::7', '2001:db8::100', '2001:db8::1ff', '::7']) assert.equal(v6.contains(inside), true, inside);
    for (const outside of ['2001:db8::8', '2001:db8::200', '0.0.0.7', '10.0.0.0']) assert.equal(v6.contains(outside), false, outside);
  });

  void it('reads an address with white space around it', () => {
    assert.equal(set.contains(' 10.200.3.4 '), true);
  });

  void it('takes a /0 block as every address of its family and no other', () => {
    assert.equal(new AddressSet(['0.0.0.0/0']).contains('203.0.113.9'), true);
    assert.equal(new AddressSet(['0.0.0.0/0']).contains('2001:db8::1'), false);
    assert.equal(new AddressSet(['::/0']).contains('2001:db8::1'), true);
    assert.equal(new AddressSet(['::/0']).contains('203.0.113.9'), false);
    assert.equal(new AddressSet([]).contains('203.0.113.9'), false, 'an empty list admits nobody');
  });

  void it('never matches something that is not an address', () => {
    assert.equal(set.contains('unknown'), false);
    assert.equal(set.contains(''), false);
    assert.equal(set.contains(undefined), false);
  });

  void it('ignores an IPv6 zone index', () => {
    assert.equal(new AddressSet(['fe80::/10']).contains('fe80::1%eth0'), true);
    assert.equal(parseAddress('fe80::1%eth0')?.toString(), 'fe80::1');
  });

  void it('judges an address the same way every time, also after a flood of other addresses', () => {
    const judged = ['10.200.3.4', '11.0.0.1', 'unknown', '::ffff:10.1.2.3', '2001:db9::5'].map((address) => set.contains(address));
    for (let i = 0; i < 10_000; i += 1) set.contains(`172.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let round = 0; round < 3; round += 1) {
      assert.deepEqual(
        ['10.200.3.4', '11.0.0.1', 'unknown', '::ffff:10.1.2.3', '2001:db9::5'].map((address) => set.contains(address)),
        judged,
      );
    }
    assert.deepEqual(judged, [true, false, false, true, false]);
  });
});

void describe('client address resolution', () => {
  const trusted = new AddressSet(['127.0.0.1/32', '10.9.0.0/16']);

  void it('uses the socket peer when it is not a trusted proxy, whatever X-Forwarded-For says', () => {
    assert.equal(resolveClientAddress('203.0.113.5', '10.1.1.1', trusted), '203.0.113.5');
  });

  void it('uses the right-most entry a trusted proxy appended', () => {
    assert.equal(resolveClientAddress('127.0.0.1', '198.51.100.1, 203.0.113.9', trusted), '203.0.113.9');
  });

  void it('walks past a chain of trusted proxies to the first untrusted entry', () => {
    assert.equal(resolveClientAddress('::ffff:127.0.0.1', ['1.1.1.1, 203.0.113.9', '10.9.1.1'], trusted), '203.0.113.9');
  });

  void it('takes the left-most entry when every hop is trusted', () => {
    assert.equal(resolveClientAddress('127.0.0.1', '10.9.0.2, 10.9.0.3', trusted), '10.9.0.2');
  });

  void it('falls back to the peer when a trusted proxy sent no header', () => {
    assert.equal(resolveClientAddress('127.0.0.1', undefined, trusted), '127.0.0.1');
  });

  void it('keeps an unparseable entry as the address, so it matches no allowlist', () => {
    const address = resolveClientAddress('127.0.0.1', 'not-an-ip', trusted);
    assert.equal(address, 'not-an-ip');
    assert.equal(new AddressSet(['0.0.0.0/0', '::/0']).contains(address), false);
  });

  void it('skips empty entries and white space in X-Forwarded-For, and has no address without a peer', () => {
    assert.equal(resolveClientAddress('127.0.0.1', ' 198.51.100.1 ,203.0.113.9 , ', trusted), '203.0.113.9');
    assert.equal(resolveClientAddress(undefined, undefined, trusted), '');
  });

  void it('normalises IPv4-mapped and long-form IPv6 peers', () => {
    assert.equal(resolveClientAddress('::ffff:192.0.2.1', undefined, trusted), '192.0.2.1');
    assert.equal(resolveClientAddress('0:0:0:0:0:0:0:1', undefined, trusted), '::1');
  });
});

void describe('operations routes', () => {
  void it('exempts health, metrics, the OpenAPI document and the docs tree, nothing else', () => {
    for (const url of ['/health/live', '/health/ready', '/metrics', '/openapi.json', '/docs', '/docs/', '/docs/static/*']) assert.equal(isOperationsRoute(url), true, url);
    for (const url of [undefined, '/api/v1/transactions/outbound/credit-transfer', '/oauth/token', '/docsx', '/health']) assert.equal(isOperationsRoute(url), false, String(url));
  });
});

void describe('admin routes', () => {
  void it('are the admin API and the console, nothing else', () => {
    for (const url of ['/admin/v1/transactions', '/admin/', '/console', '/console/', '/console/assets/*']) assert.equal(isAdminRoute(url), true, url);
    for (const url of [undefined, '/admin', '/consoles', '/api/v1/admin/', '/x/console/', '/health/live']) assert.equal(isAdminRoute(url), false, String(url));
  });
});

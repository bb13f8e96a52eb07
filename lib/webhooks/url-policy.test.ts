// The address classifier and the outbound policy, over a table of textual forms. No traffic:
// DNS is a stub resolver and the only sockets are on loopback.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { addressAllowed, assertDeliverableUrl, classifyAddress, setResolver } from "./url-policy.ts";
import { postChecked, RESPONSE_LIMIT } from "./outbound.ts";

const PROD_DEPLOY = (environment: "sandbox" | "production") => ({ environment, production: true });
const DEV_DEPLOY = (environment: "sandbox" | "production") => ({ environment, production: false });

// [form, canonical address, range]
const NON_PUBLIC: Array<[string, string, string]> = [
  ["127.0.0.1", "127.0.0.1", "loopback"],
  ["127.1", "127.0.0.1", "loopback"],
  ["2130706433", "127.0.0.1", "loopback"],
  ["0x7f000001", "127.0.0.1", "loopback"],
  ["0x7f.0.0.1", "127.0.0.1", "loopback"],
  ["017700000001", "127.0.0.1", "loopback"],
  ["0177.0.0.1", "127.0.0.1", "loopback"],
  ["::1", "::1", "loopback"],
  ["[::1]", "::1", "loopback"],
  ["::ffff:127.0.0.1", "127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "127.0.0.1", "loopback"],
  ["0:0:0:0:0:ffff:7f00:0001", "127.0.0.1", "loopback"],
  ["::127.0.0.1", "127.0.0.1", "loopback"],
  ["10.0.0.1", "10.0.0.1", "private"],
  ["167772161", "10.0.0.1", "private"],
  ["172.16.5.4", "172.16.5.4", "private"],
  ["192.168.1.1", "192.168.1.1", "private"],
  ["0xc0a80101", "192.168.1.1", "private"],
  ["::ffff:192.168.1.1", "192.168.1.1", "private"],
  ["::ffff:c0a8:101", "192.168.1.1", "private"],
  ["fd00::1", "fd00::1", "uniqueLocal"],
  ["fc00::1", "fc00::1", "uniqueLocal"],
  ["169.254.169.254", "169.254.169.254", "linkLocal"],
  ["2852039166", "169.254.169.254", "linkLocal"],
  ["0xa9fea9fe", "169.254.169.254", "linkLocal"],
  ["::ffff:169.254.169.254", "169.254.169.254", "linkLocal"],
  ["::ffff:a9fe:a9fe", "169.254.169.254", "linkLocal"],
  ["fe80::1", "fe80::1", "linkLocal"],
  ["fe80::1%eth0", "fe80::1", "linkLocal"],
  ["fd00:ec2::254", "fd00:ec2::254", "uniqueLocal"],
  ["100.100.100.200", "100.100.100.200", "carrierGradeNat"],
  ["64:ff9b::7f00:1", "64:ff9b::7f00:1", "rfc6052:loopback"],
  ["64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe", "rfc6052:linkLocal"],
  ["64:ff9b::a00:1", "64:ff9b::a00:1", "rfc6052:private"],
  ["2002:7f00:1::", "2002:7f00:1::", "6to4:loopback"],
  ["2002:a9fe:a9fe::1", "2002:a9fe:a9fe::1", "6to4:linkLocal"],
  ["2002:c0a8:101::", "2002:c0a8:101::", "6to4:private"],
  ["0.0.0.0", "0.0.0.0", "unspecified"],
  ["0", "0.0.0.0", "unspecified"],
  ["::", "::", "unspecified"],
  ["224.0.0.1", "224.0.0.1", "multicast"],
  ["ff02::1", "ff02::1", "multicast"],
  ["255.255.255.255", "255.255.255.255", "broadcast"],
  ["240.0.0.1", "240.0.0.1", "reserved"],
  ["192.0.2.1", "192.0.2.1", "reserved"],
  ["2001::1", "2001::1", "teredo"],
];
const PUBLIC = ["93.184.216.34", "8.8.8.8", "1558501410", "2606:4700::1111", "::ffff:93.184.216.34", "::ffff:5db8:d822", "64:ff9b::5db8:d822", "2002:5db8:d822::1"];

describe("classifyAddress: every textual form of non-public addresses", () => {
  for (const [form, address, range] of NON_PUBLIC) {
    test(`${form} -> ${address} (${range})`, () => {
      assert.deepEqual(classifyAddress(form), { address, range });
      for (const env of ["sandbox", "production"] as const) assert.equal(addressAllowed(form, PROD_DEPLOY(env)), false, `${form} refused for ${env} in production`);
    });
  }
  test("public unicast addresses, also when carried in IPv6, are allowed", () => {
    for (const a of PUBLIC) {
      assert.equal(classifyAddress(a)?.range, "unicast", a);
      assert.ok(addressAllowed(a, PROD_DEPLOY("production")), a);
    }
  });
  test("host names and garbage are not addresses", () => {
    for (const h of ["example.com", "localhost", "1.2.3.4.5", "", "::g"]) assert.equal(classifyAddress(h), null, h);
  });
});

describe("deployment policy", () => {
  test("a development/test deployment lets only sandbox subscriptions reach loopback, nothing else private", () => {
    for (const form of ["127.0.0.1", "::1", "::ffff:7f00:1", "2130706433"]) {
      assert.ok(addressAllowed(form, DEV_DEPLOY("sandbox")), form);
      assert.equal(addressAllowed(form, DEV_DEPLOY("production")), false, form);
    }
    for (const form of ["10.0.0.1", "169.254.169.254", "::ffff:a9fe:a9fe", "fd00::1"]) assert.equal(addressAllowed(form, DEV_DEPLOY("sandbox")), false, form);
  });

  test("set time: literal forms in URLs and resolved names are refused in production for both environments", async () => {
    setResolver(async (h) => (h === "public.example" ? ["93.184.216.34"] : ["93.184.216.34", "10.1.2.3"]));
    try {
      for (const env of ["sandbox", "production"] as const) {
        for (const url of ["https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://[::ffff:a9fe:a9fe]/", "https://2130706433/", "https://0x7f.1/", "https://0177.0.0.1/", "https://169.254.169.254/latest", "https://[fd00:ec2::254]/", "https://[64:ff9b::a9fe:a9fe]/", "https://mixed.example/"]) {
          await assert.rejects(assertDeliverableUrl(url, env, PROD_DEPLOY(env)), (e: { code?: string; param?: string }) => e.code === "invalid_request" && e.param === "url", `${env} ${url}`);
        }
        await assertDeliverableUrl("https://public.example/hook", env, PROD_DEPLOY(env));
      }
      await assert.rejects(assertDeliverableUrl("http://public.example/hook", "production", PROD_DEPLOY("production")), /https/);
    } finally {
      setResolver(null);
    }
  });
});

describe("connect time: the address connected to is the one checked", () => {
  let connections = 0;
  const big = "x".repeat(64 * 1024);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end(big));
  });
  server.on("connection", () => connections++);
  const listening = new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as AddressInfo).port)));
  after(() => {
    setResolver(null);
    server.close();
  });

  test("a resolver answering public at set time, then loopback: refused before any socket opens", async () => {
    const port = await listening;
    let calls = 0;
    setResolver(async () => (++calls === 1 ? ["93.184.216.34"] : ["127.0.0.1"]));
    await assertDeliverableUrl(`https://rebind.example:${port}/`, "sandbox", PROD_DEPLOY("sandbox"));
    const before = connections;
    await assert.rejects(postChecked(`http://rebind.example:${port}/`, "{}", {}, PROD_DEPLOY("sandbox"), 2_000), { name: "OutboundRefused" });
    assert.equal(calls, 2);
    assert.equal(connections, before, "no connection reached the loopback listener");
  });

  test("every private answer is refused, in every form, before a socket opens", async () => {
    const port = await listening;
    const before = connections;
    for (const answer of ["127.0.0.1", "::ffff:127.0.0.1", "::1", "10.0.0.1", "169.254.169.254"]) {
      setResolver(async () => [answer]);
      for (const env of ["sandbox", "production"] as const) {
        await assert.rejects(postChecked(`http://hook.example:${port}/`, "{}", {}, { environment: env, production: true }, 2_000), { name: "OutboundRefused" }, answer);
      }
    }
    // Literal addresses never reach a resolver: judged before the request.
    await assert.rejects(postChecked(`http://127.0.0.1:${port}/`, "{}", {}, PROD_DEPLOY("sandbox"), 2_000), { name: "OutboundRefused" });
    await assert.rejects(postChecked(`http://[::ffff:7f00:1]:${port}/`, "{}", {}, PROD_DEPLOY("sandbox"), 2_000), { name: "OutboundRefused" });
    assert.equal(connections, before);
  });

  test("a development deployment's sandbox reaches loopback at the resolved address; the answer is cut at 1 KiB", async () => {
    const port = await listening;
    setResolver(async () => ["127.0.0.1"]);
    const before = connections;
    const res = await postChecked(`http://dev-hook.example:${port}/`, "{}", {}, DEV_DEPLOY("sandbox"), 5_000);
    assert.equal(res.status, 200);
    assert.equal(res.body.length, RESPONSE_LIMIT);
    assert.equal(connections, before + 1);
  });
});

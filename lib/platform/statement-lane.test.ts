// The lane shared by the payment insert's group commit and the shared reads (lib/platform/statement-lane.ts),
// driven with statements this test settles by hand: how many go out at once, what a group holds,
// and what each member gets when a statement fails or a delivery throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runGroup, StatementLane, type Member } from "@/lib/platform/statement-lane";

type Ask = Member & { n: number; resolve: (v: string) => void };
const ask = (lane: StatementLane<Ask>, n: number) => new Promise<string>((resolve, reject) => lane.add({ n, resolve, reject }));

test("at most inFlight statements are out; what arrives meanwhile goes together, oldest first, within take's bound", async () => {
  const sent: number[][] = [];
  const release: Array<() => void> = [];
  let idle = 0;
  const lane = new StatementLane<Ask>({
    inFlight: 2,
    take: (waiting) => ({ group: waiting.slice(0, 3), rest: waiting.slice(3) }),
    send: (group) => (sent.push(group.map((a) => a.n)), new Promise<void>((done) => release.push(() => (group.forEach((a) => a.resolve(`r${a.n}`)), done())))),
    onIdle: () => idle++,
  });
  const answers = [1, 2, 3, 4, 5, 6].map((n) => ask(lane, n));
  assert.deepEqual(sent, [[1], [2]], "an idle lane sends each arrival at once, up to inFlight");
  release[0]!();
  await answers[0];
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent, [[1], [2], [3, 4, 5]], "a freed slot takes the oldest waiting, at most take's bound");
  release[1]!();
  release[2]!();
  await Promise.all(answers.slice(0, 5));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.at(-1), [6]);
  assert.equal(idle, 0);
  release[3]!();
  assert.deepEqual(await Promise.all(answers), ["r1", "r2", "r3", "r4", "r5", "r6"]);
  await new Promise((r) => setImmediate(r));
  assert.equal(idle, 1, "told once nothing is out or waiting");
  assert.deepEqual(lane.stats, { statements: 4, members: 6, largest: 3 });
});

test("sendMore: with a statement out, a second waits until enough members are waiting", async () => {
  const sent: number[][] = [];
  const release: Array<() => void> = [];
  const lane = new StatementLane<Ask>({
    inFlight: 2,
    sendMore: (waiting) => waiting >= 3,
    take: (waiting) => ({ group: waiting, rest: [] }),
    send: (group) => (sent.push(group.map((a) => a.n)), new Promise<void>((done) => release.push(() => (group.forEach((a) => a.resolve(`r${a.n}`)), done())))),
  });
  const answers = [1, 2, 3].map((n) => ask(lane, n));
  assert.deepEqual(sent, [[1]], "two waiting: no second statement yet");
  answers.push(ask(lane, 4));
  assert.deepEqual(sent, [[1], [2, 3, 4]], "three waiting: the second goes");
  answers.push(ask(lane, 5));
  assert.deepEqual(sent, [[1], [2, 3, 4]], "inFlight still bounds");
  release[0]!();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent, [[1], [2, 3, 4]], "one still out: the one waiting waits for it");
  release[1]!();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.at(-1), [5], "none out: what waits goes, however few");
  release[2]!();
  assert.deepEqual(await Promise.all(answers), ["r1", "r2", "r3", "r4", "r5"]);
});

test("a failed statement runs each member alone; a lost database fails them all; a delivery's failure never re-runs it", async () => {
  const members = (k: number) => Array.from({ length: k }, (_, n) => ({ n, reject: (e: unknown) => void (rejected[n] = e) }));
  let rejected: unknown[] = [];
  let alone: number[] = [];
  const steps = (together: () => Promise<string>, deliver: (r: string) => void = () => {}) => ({ together, deliver, alone: async (m: { n: number }) => void alone.push(m.n) });

  await runGroup(members(1), steps(async () => assert.fail("a group of one goes alone")));
  assert.deepEqual(alone, [0]);

  alone = [];
  await runGroup(members(3), steps(async () => Promise.reject(Object.assign(new Error("violates check"), { code: "23514" }))));
  assert.deepEqual(alone, [0, 1, 2], "each member again alone");

  alone = [];
  rejected = [];
  const lost = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
  await runGroup(members(3), steps(async () => Promise.reject(lost)));
  assert.deepEqual(alone, []);
  assert.deepEqual(rejected, [lost, lost, lost]);

  alone = [];
  let ran = 0;
  await assert.rejects(runGroup(members(2), steps(async () => String(++ran), () => { throw new Error("delivery"); })), /delivery/);
  assert.equal(ran, 1);
  assert.deepEqual(alone, [], "a statement that took is not sent again");
});

test("a send that throws fails the members it left unsettled; settled ones keep their answer", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const groups: number[][] = [];
  const lane = new StatementLane<Ask>({
    inFlight: 1,
    take: (waiting) => ({ group: waiting, rest: [] }),
    send: async (group) => {
      groups.push(group.map((a) => a.n));
      if (group[0]!.n === 0) return void (await gate, group[0]!.resolve("first"));
      group.find((a) => a.n === 1)!.resolve("kept");
      throw new Error("send broke");
    },
  });
  const asked = [0, 1, 2].map((n) => ask(lane, n));
  release();
  const [r0, r1, r2] = await Promise.allSettled(asked);
  assert.deepEqual(groups, [[0], [1, 2]]);
  assert.deepEqual([r0, r1], [{ status: "fulfilled", value: "first" }, { status: "fulfilled", value: "kept" }]);
  assert.equal(r2!.status, "rejected");
  assert.match(String((r2 as PromiseRejectedResult).reason), /send broke/);
});

test("a send that throws at once fails its group and gives its place back", async () => {
  let calls = 0;
  const lane = new StatementLane<Ask>({
    inFlight: 1,
    take: (waiting) => ({ group: waiting.slice(0, 1), rest: waiting.slice(1) }),
    send: (group) => {
      if (++calls === 1) throw new Error("broke before any await");
      group[0]!.resolve(`r${group[0]!.n}`);
      return Promise.resolve();
    },
  });
  const [first, second] = await Promise.allSettled([ask(lane, 1), ask(lane, 2)]);
  assert.equal(first!.status, "rejected");
  assert.deepEqual(second, { status: "fulfilled", value: "r2" }, "the lane went on");
});

// kill -9 of the mandate job (decisions.md "Recurring PIX (mandates)", "Money leaves at most
// once"): the job runs as its own process (mandates-crash-run.ts) over 72 due charges and is
// killed with SIGKILL at random moments, again and again, then runs once more past the claims'
// leases. Every charge ends sent with exactly one payment, the one named by its mandate, due date
// and first attempt: a kill between a claim's commit and its payment leaves the charge sending,
// and the run after its lease makes that payment once (or adopts the one already made).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { day } from "./mandates-fixtures.ts";
import { setRate } from "@/lib/money/rates";
import { runMandates } from "@/lib/mandates/send-due-charges";
import { chargePaymentId } from "@/lib/mandates/charge-payment-id";

before(() => setRate("BRL", "5.00", "test"));
after(() => db().$disconnect());


/** Starts the job process; resolves once it has loaded, with a way to kill it and its exit. */
async function startJob(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "e2e/api/mandates-crash-run.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await waitFor(async () => out.includes("ready") || child.exitCode !== null, "the job process to start", 60_000);
  return { kill: () => child.kill("SIGKILL"), exited, output: () => out };
}

test("SIGKILL of the mandate job at random moments: each due charge sent once, with one payment", { timeout: 240_000 }, async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const dues = Array.from({ length: 9 }, (_, i) => day(32 + i));
  const charges: Array<{ id: string; mandateId: string; dueDate: string }> = [];
  for (let k = 0; k < 8; k++) {
    const made = await api("/mandates", { key, body: { amount: 20 + k, period: "weekly", startDate: day(20), customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" }, description: `Plano ${k}` } });
    assert.equal(made.status, 201, made.text);
    const id = made.body.mandate.id;
    assert.equal((await api(`/mandates/${id}/simulate`, { key, body: { action: "authorize" } })).status, 200);
    for (const d of dues) {
      const c = await api(`/mandates/${id}/charges`, { key, body: { dueDate: d } });
      assert.equal(c.status, 201, c.text);
      charges.push({ id: c.body.charge.id, mandateId: id, dueDate: d });
    }
  }
  // Noon in São Paulo of day 30: every charge is inside its window (2 to 10 days before it is due).
  const now = new Date(Date.parse(`${day(30)}T15:00:00Z`));
  const env = { NOW: now.toISOString(), MERCHANT_ID: m.merchantId };
  let kills = 0;
  let leftSending = 0;
  for (let round = 0; round < 10; round++) {
    const job = await startJob(env);
    // From before the first claim to well into the sends (the first payment of a cold process is slow).
    const killAfter = 50 + Math.floor(Math.random() * 1_500);
    const killed = await Promise.race([new Promise<boolean>((r) => setTimeout(() => r(true), killAfter)), job.exited.then(() => false)]);
    if (killed) {
      job.kill();
      kills++;
    }
    await job.exited;
    // Charges a kill left between claim and payment (or between payment and its note).
    leftSending = await db().mandateCharge.count({ where: { merchantId: m.merchantId, status: "sending" } });
    if (!killed && (await db().mandateCharge.count({ where: { merchantId: m.merchantId, status: "scheduled" } })) === 0) break;
  }
  // Past the leases of the claims the kills interrupted.
  const final = await runMandates({ now: new Date(now.getTime() + 10 * 60_000), merchantId: m.merchantId });
  assert.equal((await runMandates({ now: new Date(now.getTime() + 20 * 60_000), merchantId: m.merchantId })).claimed, 0);

  const rows = await db().mandateCharge.findMany({ where: { merchantId: m.merchantId } });
  assert.equal(rows.length, 72);
  for (const c of charges) {
    const row = rows.find((r) => r.id === c.id)!;
    const expected = chargePaymentId(c.mandateId, c.dueDate, 1);
    assert.equal(row.status, "sent", `${c.id} ${row.status}`);
    assert.equal(row.attempts, 1, c.id);
    assert.deepEqual(row.paymentIds, [expected], c.id);
  }
  const payments = await db().transaction.findMany({ where: { merchantId: m.merchantId }, select: { id: true, mandateId: true, status: true } });
  assert.equal(payments.length, 72, "one payment per charge, none twice");
  assert.deepEqual(new Set(payments.map((p) => p.id)), new Set(rows.map((r) => r.paymentId)));
  assert.ok(payments.every((p) => p.status === "pending" && p.mandateId));
  // What the kills left for the final run: claims without their payment (made now) or with it (adopted).
  console.log(JSON.stringify({ kills, sendingAfterKills: leftSending, paymentsBeforeFinalRun: 72 - final.sent, finalRun: final }));
});

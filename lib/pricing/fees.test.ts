import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { addDays, FLAT_FEE_USD_MINOR, PLATFORM_FEE_BP, priceCharge, RESERVE_BP, RESERVE_HOLD_DAYS, settlementDays } from "@/lib/pricing/fees";
import { railById, type Rail } from "@/lib/rails/rails";

const rail = (id: string): Rail => {
  const r = railById(id);
  assert.ok(r, `rail ${id} exists`);
  return r;
};

describe("fee defaults (decisions.md)", () => {
  test("platform % by tier, 0.30 USD flat, reserve % by tier held 90 days", () => {
    assert.deepEqual(PLATFORM_FEE_BP, { starter: 390n, standard: 290n, premium: 240n });
    assert.equal(FLAT_FEE_USD_MINOR, 30n);
    assert.deepEqual(RESERVE_BP, { starter: 1000n, standard: 500n, premium: 0n });
    assert.equal(RESERVE_HOLD_DAYS, 90);
  });
});

describe("priceCharge on 100.00 USD through sbx_pix (provider 0.90%, network 0.00)", () => {
  const pix = rail("sbx_pix");

  test("the rail's own fees are as the catalog says", () => {
    assert.equal(pix.providerFeeBp, 90);
    assert.equal(pix.networkFeeUsdMinor, 0);
  });

  test("starter: 3.9% + 0.30, reserve 10% of the net after fees", () => {
    const p = priceCharge(10_000n, "starter", pix);
    // fees 3.90 + 0.30 + 0.90 + 0.00 = 5.10; after fees 94.90; reserve 9.49; net 85.41
    assert.deepEqual(p, { platformPercent: 390n, flat: 30n, provider: 90n, network: 0n, total: 510n, reserve: 949n, net: 8541n });
  });

  test("standard: 2.9% + 0.30, reserve 5% rounded half-up", () => {
    const p = priceCharge(10_000n, "standard", pix);
    // fees 2.90 + 0.30 + 0.90 = 4.10; after fees 95.90; reserve 4.795 -> 4.80; net 91.10
    assert.deepEqual(p, { platformPercent: 290n, flat: 30n, provider: 90n, network: 0n, total: 410n, reserve: 480n, net: 9110n });
  });

  test("premium: 2.4% + 0.30, no reserve", () => {
    const p = priceCharge(10_000n, "premium", pix);
    // fees 2.40 + 0.30 + 0.90 = 3.60; net 96.40
    assert.deepEqual(p, { platformPercent: 240n, flat: 30n, provider: 90n, network: 0n, total: 360n, reserve: 0n, net: 9640n });
  });
});

describe("priceCharge, general properties", () => {
  test("a rail with a network fee: sbx_card (2.90% + 0.10) on 100.00 USD, standard", () => {
    const p = priceCharge(10_000n, "standard", rail("sbx_card"));
    // 2.90 + 0.30 + 2.90 + 0.10 = 6.20; after fees 93.80; reserve 4.69; net 89.11
    assert.deepEqual(p, { platformPercent: 290n, flat: 30n, provider: 290n, network: 10n, total: 620n, reserve: 469n, net: 8911n });
  });

  test("half-up at the minor unit on odd amounts", () => {
    // 12.35 USD on sbx_pix, starter: 3.9% = 0.48165 -> 0.48; 0.9% = 0.11115 -> 0.11
    const p = priceCharge(1235n, "starter", rail("sbx_pix"));
    assert.equal(p.platformPercent, 48n);
    assert.equal(p.provider, 11n);
    assert.equal(p.total, 48n + 30n + 11n);
    assert.equal(p.reserve, 115n); // 10% of 11.46 = 1.146 -> 1.15
    assert.equal(p.net, 1235n - p.total - p.reserve);
  });

  test("amount = fees + reserve + net, in bigint, for every rail and tier", () => {
    for (const id of ["sbx_pix", "sbx_spei", "sbx_pse", "sbx_card", "sbx_cash", "1001", "1004", "1009"]) {
      for (const tier of ["starter", "standard", "premium"] as const) {
        for (const amount of [100n, 101n, 999n, 10_000n, 12_345n, 50_000n, 9_999_999n]) {
          const p = priceCharge(amount, tier, rail(id));
          for (const v of Object.values(p)) assert.equal(typeof v, "bigint");
          assert.equal(p.total, p.platformPercent + p.flat + p.provider + p.network);
          assert.equal(p.total + p.reserve + p.net, amount, `${id} ${tier} ${amount}`);
          assert.ok(p.reserve >= 0n);
          if (tier === "premium") assert.equal(p.reserve, 0n);
        }
      }
    }
  });

  test("when the fees exceed the amount there is no reserve", () => {
    const p = priceCharge(50n, "starter", rail("sbx_cash")); // 0.50 USD through OXXO: fees 0.83
    assert.equal(p.reserve, 0n);
    assert.equal(p.net, 50n - p.total);
  });
});

describe("settlementDays / addDays", () => {
  test("T+N is N days", () => {
    assert.equal(settlementDays("T+2"), 2);
    assert.equal(settlementDays("T+1"), 1);
    assert.equal(settlementDays("T+3"), 3);
    assert.equal(settlementDays("T+0"), 0);
    assert.equal(settlementDays("T+10"), 10);
  });

  test("each sandbox rail's delay is the one decisions.md names", () => {
    assert.equal(settlementDays(rail("sbx_card").settlementDelay), 2);
    assert.equal(settlementDays(rail("sbx_pix").settlementDelay), 1);
    assert.equal(settlementDays(rail("sbx_spei").settlementDelay), 1);
    assert.equal(settlementDays(rail("sbx_cash").settlementDelay), 3);
  });

  test("addDays adds whole days of milliseconds", () => {
    const d = new Date("2026-01-30T12:00:00.000Z");
    assert.equal(addDays(d, 2).toISOString(), "2026-02-01T12:00:00.000Z");
    assert.equal(addDays(d, 90).toISOString(), "2026-04-30T12:00:00.000Z");
  });
});

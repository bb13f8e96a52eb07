import { test } from "node:test";
import assert from "node:assert/strict";
import { isValidAddress } from "@/lib/crypto-assets/addresses";

test("TRON: base58check with the 0x41 prefix", () => {
  assert.equal(isValidAddress("TRON", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"), true); // USDT's contract
  assert.equal(isValidAddress("TRON", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"), false); // checksum broken
  assert.equal(isValidAddress("TRON", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"), false); // a Bitcoin address
  assert.equal(isValidAddress("TRON", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), false);
});

test("EVM: 0x + 40 hex; mixed case only with a valid EIP-55 checksum", () => {
  assert.equal(isValidAddress("ETHEREUM", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), true);
  assert.equal(isValidAddress("POLYGON", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), true);
  assert.equal(isValidAddress("ETHEREUM", "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), false);
  assert.equal(isValidAddress("ETHEREUM", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"), false);
  assert.equal(isValidAddress("ETHEREUM", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"), false);
});

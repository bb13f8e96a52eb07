// EBANX's notifications as EBANX sends them (docs.ebanx.com payment-notifications; developers.ebanx.com
// integrations/notifications): a form-encoded POST to the registered Notification URL naming hashes,
//   operation=payment_status_change&notification_type=update&hash_codes=<hash>
// signed RSA-SHA1 over the raw body: X-SignatureType "rsa,sha1", X-SignatureFingerprint the
// certificate's SHA-1, X-SignatureContent the base64 signature. Payout notices name the payout's uid
// the same way (docs.ebanx.com/docs/payout/general/notification: "get the payout hash codes").
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";

/** A fresh RSA key pair for the simulator's signature: the private key signs, the public one goes to PROVIDER_EBANX_NOTICE_CERTIFICATE. */
export function ebanxNoticeKeys(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

export type Delivery = { body: string; status: number | null };

export class Notifier {
  readonly key: KeyObject;
  readonly publicKeyPem: string;
  readonly fingerprint: string;
  deliveries: Delivery[] = [];
  constructor(privateKeyPem: string | null, public noticeUrl: string, private log: (s: string) => void) {
    this.key = privateKeyPem ? createPrivateKey(privateKeyPem) : createPrivateKey(ebanxNoticeKeys().privateKey);
    const pub = createPublicKey(this.key);
    this.publicKeyPem = pub.export({ type: "spki", format: "pem" }).toString();
    this.fingerprint = createHash("sha1").update(pub.export({ type: "spki", format: "der" })).digest("hex").toUpperCase();
  }

  /** The headers a body is sent with; `forge` signs it with another key (a forged notice). */
  headers(body: string, forge = false): Record<string, string> {
    const key = forge ? createPrivateKey(ebanxNoticeKeys().privateKey) : this.key;
    return { "content-type": "application/x-www-form-urlencoded", "x-signaturetype": "rsa,sha1", "x-signaturefingerprint": this.fingerprint, "x-signaturecontent": sign("sha1", Buffer.from(body), key).toString("base64") };
  }

  /** Sends one notice naming `hashes`; resolves with the HTTP status our server answered (null: no answer). */
  async send(hashes: string[], type = "update", operation = "payment_status_change"): Promise<number | null> {
    const body = `operation=${operation}&notification_type=${type}&hash_codes=${hashes.join(",")}`;
    let status: number | null = null;
    try {
      const r = await fetch(this.noticeUrl, { method: "POST", headers: this.headers(body), body, signal: AbortSignal.timeout(10_000) });
      status = r.status;
    } catch (err) {
      this.log(`ebanx simulator: notice to ${this.noticeUrl} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.deliveries.push({ body, status });
    return status;
  }
}

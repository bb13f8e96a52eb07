export { createClient, unwrap, type ClientOptions, type PaymentsClient } from "./client.ts";
export { ApiError, WebhookVerificationError, type ErrorCode, type ErrorEnvelope } from "./errors.ts";
export { verifyWebhook, type WebhookEvent, type HeaderSource, type VerifyOptions } from "./webhooks.ts";
export type { paths, components } from "./schema.ts";

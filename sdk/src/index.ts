export { createClient, unwrap, type ClientOptions, type PaymentsClient } from "./client.ts";
export { ApiError, WebhookVerificationError, type ErrorCode, type ErrorEnvelope } from "./errors.ts";
export { verifyWebhook, type WebhookEvent, type WebhookEventType, type EventOf, type HeaderSource, type VerifyOptions } from "./webhooks.ts";
export type { paths, components } from "./schema.ts";
export { listen, ListenError, type ListenOptions, type ForwardResult } from "./listen.ts";

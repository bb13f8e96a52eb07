// What one routing attempt came to: the record stats, stores and windows all speak (kept apart so
// none of them imports another for its types).
export type OutcomeKind = "approved" | "declined" | "hard" | "error";
export type RoutingOutcomeInput = { provider: string; rail: string; band: string; outcome: OutcomeKind; declineCode: string | null; latencyMs: number; rescued?: boolean; at?: Date };

// The API version every answer and event names (`apiVersion`): one date for the whole contract.
export const API_VERSION = "2026-05-01";

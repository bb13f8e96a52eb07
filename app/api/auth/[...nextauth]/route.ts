// Auth.js' own endpoints (session, csrf, sign-out form posts; its POSTs check its CSRF token).
import { handlers } from "@/auth";

export const { GET, POST } = handlers;

// The buyer pages' stylesheet under `next dev` (server/buyer-page.tsx links it there; a
// production build links the stylesheet Next built for the root layout instead): app/globals.css
// through the same PostCSS/Tailwind pipeline as the build, compiled on request.
import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  // A production build never links it, and a Tailwind compile per request is not something any
  // caller may start there.
  if (process.env.NODE_ENV === "production") return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const from = path.join(process.cwd(), "app/globals.css");
  const [{ default: postcss }, { default: tailwind }] = await Promise.all([import("postcss"), import("@tailwindcss/postcss")]);
  const out = await postcss([tailwind()]).process(await readFile(from, "utf8"), { from });
  return new Response(out.css, { headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-store" } });
}

import type { Metadata } from "next";
import { config } from "@/lib/platform/config";
import { singleton } from "@/lib/platform/singleton";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { requireDashboard } from "@/server/dashboard";
import { ApiReference, type OpenApiDocument } from "@/components/dashboard/api-reference";

export const metadata: Metadata = { title: "API reference · Dashboard" };

export default async function ApiReferencePage() {
  await requireDashboard();
  // The very document GET /api/v1/openapi.json serves (same builder, same process-wide copy),
  // rendered on the server: no script or stylesheet from any CDN.
  const doc = singleton("openapi-document", () => buildOpenApiDocument(config().APP_URL)) as unknown as OpenApiDocument;
  return <ApiReference doc={doc} />;
}

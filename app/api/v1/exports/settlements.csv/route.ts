import { methods } from "@/lib/platform/http/handler";
import { csvRoute } from "../csv-route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: csvRoute("settlements") });

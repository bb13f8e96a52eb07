// The parser ships no types: the part our tests use.
declare module "parse-prometheus-text-format" {
  type Sample = { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string };
  export default function parsePrometheusTextFormat(text: string): { name: string; help: string; type: string; metrics: Sample[] }[];
}

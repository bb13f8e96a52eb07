// `npm run build`: the production build, with no runtime secret and no database (scripts/lib/build.ts):
// `next build`, then the server compiled to .next/node. `-- --if-stale` builds only what changed
// (what `npm start` runs first, as its `prestart`).
import { build } from "./lib/build.ts";

build(process.argv.slice(2), (s) => console.log(`[build] ${s}`)).then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);

// MEMORY_MARKS=1: the server process logs its process.memoryUsage() at each step of a start
// (`[memory] <step> rss … heap …`), so a benchmark (npm run bench -- --phase memory) can say
// which step holds what. Off, it costs a property read.
const on = process.env.MEMORY_MARKS === "1";
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)}`;

export function memoryMark(step: string): void {
  if (!on) return;
  const m = process.memoryUsage();
  console.log(`[memory] ${step}: rss ${mib(m.rss)} heapUsed ${mib(m.heapUsed)} heapTotal ${mib(m.heapTotal)} external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)} MiB`);
}

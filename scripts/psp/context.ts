// One simulated provider's running parts (scripts/psp/simulator.ts), handed to each of its
// request handlers: who it is, where it listens, what it holds, how it is told to fail, and how
// it sends notices.
import type { SimulatedProvider } from "./providers.ts";
import { createStore, type Store } from "./store.ts";
import { createBehaviour, type Behaviour } from "./behaviour.ts";
import { createNotices, type Notices } from "./notices.ts";

export type SimContext = { p: SimulatedProvider; base: string; log: (s: string) => void; store: Store; behaviour: Behaviour; notices: Notices };

export function createContext(p: SimulatedProvider, log: (s: string) => void): SimContext {
  return { p, base: `http://127.0.0.1:${p.port}`, log, store: createStore(), behaviour: createBehaviour(p, log), notices: createNotices(p, log) };
}

// Requests' statements that go to PostgreSQL together (issue 23): the payment inserts of
// lib/payments/insert-batch.ts and the page reads of lib/platform/shared-reads.ts. Sent one by one, each
// statement is a socket write that also runs PostgreSQL's side of the loopback and wakes a
// backend, a round of Bind/Execute/Sync and an answer to parse. A lane lets `inFlight` statements
// be out at once; what arrives meanwhile waits, and the next statement carries a group of it. An
// idle lane sends each arrival at once, alone.
//
// What each caller is promised is what its own statement alone would have given it: a group's
// statement either serves every member, or (it failed, and the error does not say whose part
// failed) each member runs alone and gets its own answer or error. A lost database fails them
// all, as it would have failed each.
import { isDatabaseUnavailable } from "@/lib/platform/errors";

export type Member = { reject: (err: unknown) => void };

export type LaneOptions<M extends Member> = {
  /** Statements of this lane out at once. */
  inFlight: number;
  /** The next statement's members, oldest first, and what stays waiting. */
  take: (waiting: M[]) => { group: M[]; rest: M[] };
  /**
   * With a statement of the lane already out, whether another goes now for `waiting` members
   * (absent: always, up to `inFlight`); when not, they wait for the next statement to return.
   */
  sendMore?: (waiting: number) => boolean;
  /** Sends one statement for `group` (runGroup, usually); must settle every member. */
  send: (group: M[]) => Promise<void>;
  /** Nothing out and nothing waiting (a lane per statement text may then be let go). */
  onIdle?: () => void;
};

export type LaneStats = { statements: number; members: number; largest: number };

/** Counters for a kind of lane, before any statement. */
export const newLaneStats = (): LaneStats => ({ statements: 0, members: 0, largest: 0 });

export class StatementLane<M extends Member> {
  private waiting: M[] = [];
  private out = 0;

  constructor(
    private readonly options: LaneOptions<M>,
    /** Shared with other lanes of one kind when they count together. */
    readonly stats: LaneStats = newLaneStats(),
  ) {}

  add(member: M): void {
    this.waiting.push(member);
    this.pump();
  }

  private pump(): void {
    while (this.out < this.options.inFlight && this.waiting.length > 0) {
      if (this.out > 0 && this.options.sendMore && !this.options.sendMore(this.waiting.length)) return;
      const { group, rest } = this.options.take(this.waiting);
      this.waiting = rest;
      this.stats.statements++;
      this.stats.members += group.length;
      if (group.length > this.stats.largest) this.stats.largest = group.length;
      this.out++;
      let sent: Promise<void>;
      try {
        sent = this.options.send(group);
      } catch (err) {
        sent = Promise.reject(err);
      }
      // A send that throws (at once or later) past its own handling fails what it left unsettled
      // (a settled member keeps its answer), and its place in flight is given back either way.
      void sent
        .catch((err: unknown) => {
          for (const m of group) m.reject(err);
        })
        .finally(() => {
          this.out--;
          if (this.out === 0 && this.waiting.length === 0) this.options.onIdle?.();
          else this.pump();
        });
    }
  }
}

/**
 * One group's statement: `together` for a group of two or more, its result handed to `deliver`
 * (outside the retry: a delivery's own failure never re-runs a statement that took); `alone` for
 * a group of one, and for each member when `together` failed for a reason other than a lost database.
 */
export async function runGroup<M extends Member, R>(group: M[], steps: { together: () => Promise<R>; deliver: (result: R) => void; alone: (member: M) => Promise<void> }): Promise<void> {
  if (group.length === 1) return steps.alone(group[0]!);
  let result: R;
  try {
    result = await steps.together();
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      for (const m of group) m.reject(err);
      return;
    }
    // Whose part failed is not said: each goes again alone, and gets its own answer.
    await Promise.all(group.map(steps.alone));
    return;
  }
  steps.deliver(result);
}

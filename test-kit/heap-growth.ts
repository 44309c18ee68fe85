// How much of what a piece of work allocates stays on the heap. `oldGenerationGrowth`: what outlives V8's
// young-generation collections. Values that nothing holds any more should die young; a value that something hidden
// still reaches (a hidden class holding a closure, for example) survives the scavenges, is moved to the old
// generation, and costs copying and a full collection later. `retainedGrowth`: what is still reachable after a full
// collection (caches that grow with every new input). Both are made of collections the test asks for, not of time,
// so a busy machine does not change them.
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collect = (options?: { type?: "major" | "minor" }) => void;

let collect: Collect | undefined;

/** V8's `gc()`, which a process only has with --expose-gc: turned on now, and read from a fresh context. */
function collector(): Collect {
  if (collect === undefined) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as Collect;
  }
  return collect;
}

function oldGenerationBytes(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === "old_space" || space.space_name === "large_object_space")
      used += space.space_used_size;
  }
  return used;
}

/**
 * Runs `step` for rounds 0 to `rounds` - 1 with a young-generation collection every `every` rounds, and returns by how
 * many bytes the old generation grew. A warm-up of 200 rounds numbered from `rounds` on (none of them a measured one) and
 * a full collection come first: what the first rounds make once, such as compiled code and caches, is not counted.
 * Whatever `step` returns is dropped at once. The answer is the least of `attempts` measures: a major collection V8
 * starts on its own during one can leave more in the old generation than the work itself does.
 */
export function oldGenerationGrowth(
  step: (round: number) => unknown,
  rounds: number,
  every = 50,
  attempts = 3,
): number {
  const gc = collector();
  for (let round = rounds; round < rounds + 200; round++) step(round);
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < attempts; attempt++) {
    gc();
    const before = oldGenerationBytes();
    for (let round = 0; round < rounds; round++) {
      step(round);
      if (round % every === every - 1) gc({ type: "minor" });
    }
    gc({ type: "minor" });
    gc({ type: "minor" });
    least = Math.min(least, oldGenerationBytes() - before);
  }
  return least;
}

/**
 * Runs `step` for rounds 0 to `rounds` - 1 (after `warmUp` rounds numbered from `rounds` on, so that no round
 * repeats) and returns by how many bytes the heap grew between full collections before and after: what the rounds
 * left reachable.
 */
export function retainedGrowth(step: (round: number) => unknown, rounds: number, warmUp = 200): number {
  const gc = collector();
  for (let round = rounds; round < rounds + warmUp; round++) step(round);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let round = 0; round < rounds; round++) step(round);
  gc();
  return process.memoryUsage().heapUsed - before;
}

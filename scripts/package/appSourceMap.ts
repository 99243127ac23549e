import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

interface SourceMapV3 {
  readonly version: 3;
  readonly sources: readonly string[];
  readonly names: readonly string[];
  readonly mappings: string;
  readonly [key: string]: unknown;
}

/**
 * The bundle's map cut to the app's own sources: a segment from a package is dropped, or kept as a bare
 * column (a boundary that maps to nothing) where it ends an app segment on its line, so a frame in the
 * app names its `src/...ts` line and a frame in a package names the bundle's. Node reads the whole map into memory when the bundle loads; the map of
 * every package in it is 18 MiB of RSS and 80 ms of a cold start (docs/benchmarks.md#cold-start), the
 * app's alone a small part of that. `isApp` picks the sources by their path in the map; `rename` gives
 * each kept one the path a stack trace shows.
 */
export function appSourceMap(
  map: SourceMapV3,
  isApp: (source: string) => boolean,
  rename: (source: string) => string,
): SourceMapV3 {
  const sources: string[] = [];
  const sourceIndex = new Map<number, number>();
  const names: string[] = [];
  const nameIndex = new Map<number, number>();
  const keep = (index: number, from: readonly string[], to: string[], seen: Map<number, number>) => {
    let kept = seen.get(index);
    if (kept === undefined) {
      kept = to.push(from[index] ?? '') - 1;
      seen.set(index, kept);
    }
    return kept;
  };
  const lines = decode(map.mappings).map((line) => {
    const out: SourceMapSegment[] = [];
    for (const segment of line) {
      if (segment.length === 1 || !isApp(map.sources[segment[1]] ?? '')) {
        if ((out.at(-1)?.length ?? 1) > 1) out.push([segment[0]]);
        continue;
      }
      const [column, source, sourceLine, sourceColumn] = segment;
      const kept = keep(source, map.sources, sources, sourceIndex);
      out.push(
        segment.length === 5
          ? [column, kept, sourceLine, sourceColumn, keep(segment[4], map.names, names, nameIndex)]
          : [column, kept, sourceLine, sourceColumn],
      );
    }
    return out;
  });
  return { ...map, sources: sources.map(rename), names, mappings: encode(lines) };
}

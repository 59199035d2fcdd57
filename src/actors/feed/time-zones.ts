/**
 * IANA time-zone offsets through the runtime's Intl data (no tables of our own to go stale).
 * Pure: the offset depends only on the zone and the instant asked about.
 */

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(tz: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(tz);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return null;
  }
  if (zoneFormats.size < 512) zoneFormats.set(tz, f);
  return f;
}

/** Offset (minutes east) of an IANA zone at a UTC instant. */
function offsetAtInstant(f: Intl.DateTimeFormat, utc: number): number {
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utc))) if (p.type !== 'literal') parts[p.type] = +p.value;
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(utc / 1000) * 1000) / 60_000);
}

/** Offset of an IANA zone for a wall-clock time in that zone (two passes settle DST edges). */
export function zoneOffsetAt(tz: string, wall: number): number {
  const f = zoneFormat(tz)!;
  const first = offsetAtInstant(f, wall);
  return offsetAtInstant(f, wall - first * 60_000);
}

/** Whether the runtime knows this IANA zone name. */
export function isKnownZone(tz: string): boolean {
  return zoneFormat(tz) !== null;
}
